import { Navigate, type RouteObject } from 'react-router-dom';
import { LoginScreen } from '../features/auth/components/login-screen';
import { RegisterScreen } from '../features/auth/components/register-screen';
import { FilesRoute } from '../features/files/components/files-page';
import { VaultLayout } from './layouts/vault-layout';
import { adminRoute } from './routes/admin';
import { ProtectedRoute, PublicOnlyRoute } from './routes/guards';
import { RecoveryPage } from './routes/recovery';
import { RootRoute } from './routes/root';
import { RouteError } from './routes/route-error';
import { SettingsRoute } from './routes/settings';
import { testingRoute } from './routes/testing';
import { TrashRoute } from './routes/trash';
import { VaultRoute } from './routes/vault';

/** The route table of spec section 2. */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicOnlyRoute />,
        children: [
          { path: 'login', element: <LoginScreen /> },
          { path: 'register', element: <RegisterScreen /> },
          { path: 'recovery', element: <RecoveryPage /> },
        ],
      },
      {
        element: <ProtectedRoute />,
        children: [
          {
            element: <VaultLayout />,
            children: [
              { path: 'vault', element: <VaultRoute /> },
              { path: 'files', element: <FilesRoute /> },
              { path: 'trash', element: <TrashRoute /> },
              { path: 'settings', element: <SettingsRoute /> },
              testingRoute,
            ],
          },
        ],
      },
      adminRoute,
      { index: true, element: <Navigate to="/vault" replace /> },
      { path: '*', element: <Navigate to="/vault" replace /> },
    ],
  },
];
