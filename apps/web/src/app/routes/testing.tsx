import type { RouteObject } from 'react-router-dom';
import { FullPageSpinner } from '../../components/spinner';

/**
 * /testing: the testing dashboard's code (its suites, bundled vectors and contract schemas) loads
 * when the page opens, not with the vault.
 */
export const testingRoute: RouteObject = {
  path: 'testing',
  hydrateFallbackElement: <FullPageSpinner label="Loading the testing dashboard..." />,
  lazy: async () => ({
    Component: (await import('../../features/testing/components/testing-page')).TestingPage,
  }),
};
