import './zod-config.ts';
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles/app.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter } from './app/router.tsx';
import { AuthProvider } from './lib/auth-context.tsx';
import { queryClient } from './lib/query-client.ts';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={createAppRouter()} />
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
