import { useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { routes } from './router';
import { AppProviders, createAppServices, type AppServices } from './services';

export function App({ services: given }: { services?: AppServices }) {
  const [services] = useState(() => given ?? createAppServices());
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProviders services={services}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
