import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { Link, useRouteError } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { usePageTitle } from '../lib/use-page-title.ts';

/** Shown when a page fails to load (e.g. a deploy replaced its chunk); the user can reload or go home. */
export function RouteError() {
  const error = useRouteError();
  usePageTitle('Something went wrong');
  console.warn(error);
  return (
    <Container className="py-5 text-center">
      <h1 className="h3">Something went wrong</h1>
      <p>This page could not be shown. Reloading usually helps.</p>
      <div className="d-flex gap-2 justify-content-center">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <Link to={paths.home} className="btn btn-outline-secondary">
          Go home
        </Link>
      </div>
    </Container>
  );
}
