import type { FormEvent, ReactNode } from 'react';
import { Banner, ErrorBanner } from '../../../../components/banner';
import { BoundFields, type BoundField } from '../../../../components/bound-fields';
import { Button } from '../../../../components/button';
import type { RecoveryField, RecoveryFlow } from '../../state/use-recovery-flow';

/** The step's notice and error, above its fields. */
export function StepBanners({ flow }: { flow: RecoveryFlow }) {
  const { info, error } = flow.state;
  return (
    <>
      {info ? <Banner tone="info">{info}</Banner> : null}
      <ErrorBanner error={error} />
    </>
  );
}

/** Back to the choice of how to prove the account is yours. */
export function TryAnotherWay({ flow }: { flow: RecoveryFlow }) {
  return (
    <button type="button" className="link-btn" onClick={flow.reset} disabled={flow.state.busy}>
      Try another way
    </button>
  );
}

/**
 * A proving step's form: its banners, an optional lead, the fields (bound to the flow's values,
 * then any others as children), the submit button (busy while the flow works) and what follows it
 * (by default the links row with Try another way).
 */
export function StepForm({
  flow,
  onSubmit,
  lead,
  fields = [],
  submitLabel,
  busyLabel,
  children,
  after = <StepLinks flow={flow} />,
}: {
  flow: RecoveryFlow;
  onSubmit: (event: FormEvent) => void;
  lead?: ReactNode;
  fields?: BoundField<RecoveryField>[];
  submitLabel: string;
  busyLabel: string;
  children?: ReactNode;
  after?: ReactNode;
}) {
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <StepBanners flow={flow} />
      {lead ? <p className="auth__lead">{lead}</p> : null}
      <BoundFields fields={fields} values={flow.state} onEdit={flow.edit} disabled={flow.state.busy} />
      {children}
      <Button type="submit" block loading={flow.state.busy} loadingLabel={busyLabel}>
        {submitLabel}
      </Button>
      {after}
    </form>
  );
}

/** The links under a step: its own, then Try another way. */
export function StepLinks({ flow, children }: { flow: RecoveryFlow; children?: ReactNode }) {
  return (
    <div className="form__links">
      {children}
      <TryAnotherWay flow={flow} />
    </div>
  );
}
