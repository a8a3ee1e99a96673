import Container from 'react-bootstrap/Container';
import { usePageTitle } from '../lib/use-page-title.ts';

/** A page whose screen is built by a later piece of work: it shows its title so every route exists. */
export function PagePlaceholder({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <Container className="py-5">
      <h1>{title}</h1>
    </Container>
  );
}
