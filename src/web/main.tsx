import './zod-config.ts';
import 'bootstrap/dist/css/bootstrap.min.css';
import './styles/app.css';
import { type DehydratedState, HydrationBoundary, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { type HydrationState, RouterProvider } from 'react-router';
import { SERVER_STATE_ID } from '../shared/server-rendering.ts';
import { createAppRouter, loadMatchedRoutes } from './app/router.tsx';
import { AuthProvider } from './lib/auth-context.tsx';
import { queryClient } from './lib/query-client.ts';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

/** What a server-rendered page was rendered with (entry-server.tsx): the router's state and the queries' data. */
interface ServerState {
  router: HydrationState;
  queries: DehydratedState;
}

function readServerState(): ServerState | null {
  const element = document.getElementById(SERVER_STATE_ID);
  return element?.textContent ? (JSON.parse(element.textContent) as ServerState) : null;
}

const serverState = readServerState();

function markHydrated() {
  document.documentElement.dataset.hydrated = 'true';
}

/** Runs once the first render is committed: for a server-rendered page, once React has taken over its HTML. */
function AfterFirstRender({ run }: { run?: () => void }) {
  useEffect(() => run?.(), [run]);
  return null;
}

function App({ router, onHydrated }: { router: ReturnType<typeof createAppRouter>; onHydrated?: () => void }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <HydrationBoundary state={serverState?.queries}>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
          <AfterFirstRender run={onHydrated} />
        </HydrationBoundary>
      </QueryClientProvider>
    </StrictMode>
  );
}

if (serverState) {
  // Issue 15: the page's HTML came from the server; React takes it over as it is, once the page's route modules are
  // here (their first render is that HTML). `data-hydrated` on <html> then says the page answers clicks (browser
  // tests wait for it).
  void loadMatchedRoutes().then(() => {
    hydrateRoot(root, <App router={createAppRouter(serverState.router)} onHydrated={markHydrated} />);
  });
} else {
  createRoot(root).render(<App router={createAppRouter()} />);
}
