import Container from 'react-bootstrap/Container';
import { Link } from 'react-router';
import { notFoundText } from '../../../shared/messages.ts';
import { paths } from '../../../shared/paths.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';

export function Component() {
  usePageTitle('Page Not Found');
  return (
    <Container className="py-5 text-center not-found">
      <p className="display-1 fw-bold text-brand mb-0" aria-hidden="true">
        404
      </p>
      <h1 className="h2">{notFoundText}</h1>
      <p className="text-body-secondary">The page you are looking for does not exist or has moved.</p>
      <Link to={paths.home} className="btn btn-brand">
        Back to home
      </Link>
    </Container>
  );
}
