import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink, useNavigate } from 'react-router';
import { useAuth } from '../lib/auth-context.tsx';
import { paths } from '../lib/paths.ts';

/** Sticky at the top; collapses below the lg breakpoint (992 px), as spec §2 and §9 say. */
export function SiteNavbar() {
  const { status, user, signOut } = useAuth();
  const navigate = useNavigate();
  const [expanded, setExpanded] = useState(false);
  const close = () => setExpanded(false);

  return (
    <Navbar
      expand="lg"
      sticky="top"
      variant="dark"
      className="site-navbar"
      expanded={expanded}
      onToggle={setExpanded}
      aria-label="Main"
    >
      <Container>
        <Navbar.Brand as={Link} to={paths.home} onClick={close}>
          <img src="/images/logo.svg" alt="Redline Parts" width="180" height="40" />
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="main-nav" aria-label="Toggle navigation" />
        <Navbar.Collapse id="main-nav">
          <Nav className="ms-auto align-items-lg-center gap-lg-2">
            <Nav.Link as={NavLink} to={paths.parts} onClick={close}>
              Parts
            </Nav.Link>
            <Nav.Link as={NavLink} to={paths.portfolio} onClick={close}>
              My Portfolio
            </Nav.Link>
            <Nav.Link as={NavLink} to={paths.blog} onClick={close}>
              Blogs
            </Nav.Link>
            {status === 'signed-in' && user ? (
              <>
                <Nav.Link as={NavLink} to={paths.dashboard.root} onClick={close}>
                  Dashboard
                </Nav.Link>
                <span className="navbar-text text-light small text-break" data-testid="nav-user-email">
                  {user.email}
                </span>
                <Button
                  variant="outline-light"
                  size="sm"
                  className="my-2 my-lg-0"
                  onClick={async () => {
                    close();
                    await signOut('log-out');
                    navigate(paths.home);
                  }}
                >
                  Log Out
                </Button>
              </>
            ) : (
              <Nav.Link as={NavLink} to={paths.login} onClick={close}>
                Login
              </Nav.Link>
            )}
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
