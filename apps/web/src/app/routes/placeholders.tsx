import { EmptyState } from '../../components/empty-state';
import { FlaskIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';
import { useDocumentTitle } from '../../lib/use-document-title';

/** /testing: the test-runner dashboard arrives in a later milestone. */
export function TestingPage() {
  useDocumentTitle('Testing Dashboard');
  return (
    <div className="page">
      <PageHeader title="Testing Dashboard" description="Test suites and their latest results." />
      <section className="panel">
        <EmptyState icon={<FlaskIcon width={32} height={32} />} title="No test runner connected">
          <p>
            The dashboard that runs the suites from here arrives in a later release. Until then, run{' '}
            <code>npm test</code> in the repository.
          </p>
        </EmptyState>
      </section>
    </div>
  );
}
