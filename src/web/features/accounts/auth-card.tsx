import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import './accounts.css';

/** The centred card the login and sign-up forms sit in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container className="py-5">
      <Card className="auth-card mx-auto shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h3 text-center text-brand mb-4">{title}</h1>
          {children}
        </Card.Body>
      </Card>
    </Container>
  );
}
