import 'bootstrap/dist/css/bootstrap.min.css';
import './styles/app.css';
import { type DehydratedState, HydrationBoundary, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { type HydrationState, RouterProvider } from 'react-router';
import { SERVER_STATE_ID } from '../shared/server-rendering.ts';
import { createAppRouter, prepareMatchedRoutes } from './app/router.tsx';
import { AuthProvider } from './lib/auth-context.tsx';
import { readToken } from './lib/auth-token.ts';
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

function App({ router }: { router: ReturnType<typeof createAppRouter> }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <HydrationBoundary state={serverState?.queries}>
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </HydrationBoundary>
      </QueryClientProvider>
    </StrictMode>
  );
}

/** The page rendered here from the start (the shell of a signed-in page, or a page whose route could not load). */
function renderInBrowser(container: HTMLElement) {
  createRoot(container).render(<App router={createAppRouter()} />);
}

if (serverState) {
  // The page's HTML came from the server; the app takes it over as it is. Its route module first: a route still to
  // load would render nothing where the server's HTML is.
  const prepared = await prepareMatchedRoutes().then(
    () => true,
    () => false,
  );
  if (prepared) {
    const router = createAppRouter(serverState.router);
    // A page's first read of its localStorage is the slow one (the browser loads the site's storage): done here,
    // beside the router's first read of sessionStorage, instead of inside the hydration, where the sign-in is read.
    readToken();
    // React hydrates the page's outer part in this task and each <Suspense> boundary inside it later, a few
    // milliseconds at a time; a click or key press on a part not hydrated yet hydrates that part at once and reaches it.
    hydrateRoot(root, <App router={router} />);
  } else {
    // The page's route module did not arrive: rendered anew, the router loads it again and shows its error page if
    // that fails too.
    renderInBrowser(root);
  }
} else {
  renderInBrowser(root);
}
