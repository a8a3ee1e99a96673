import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink, useNavigate } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { useAuth } from '../lib/auth-context.tsx';
import { useCart } from '../lib/cart-context.tsx';
import { useHydrated } from '../lib/hydration.ts';

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
        <CartLink onClick={close} />
        <MenuToggle expanded={expanded} />
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

/**
 * The cart, with how many parts it holds, visible at every width (outside the collapsing menu, after it
 * on wide screens). The count is in its accessible name.
 */
function CartLink({ onClick }: { onClick(): void }) {
  const { count } = useCart();
  return (
    <NavLink
      to={paths.cart}
      onClick={onClick}
      className="site-navbar-cart nav-link order-lg-last ms-auto ms-lg-3 me-2 me-lg-0"
      aria-label={`Cart, ${count} ${count === 1 ? 'part' : 'parts'}`}
    >
      <svg
        aria-hidden="true"
        width="24"
        height="24"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <circle cx="9" cy="20" r="1.5" />
        <circle cx="18" cy="20" r="1.5" />
        <path d="M2 3h3l2.7 12.1a1.5 1.5 0 0 0 1.5 1.2h8.9a1.5 1.5 0 0 0 1.5-1.1L22 7H6" />
      </svg>
      {count > 0 ? (
        <span className="site-navbar-cart-count" aria-hidden="true">
          {count}
        </span>
      ) : null}
    </NavLink>
  );
}

/** The phone's menu button opens the menu only with the app: disabled until the bar is hydrated. */
function MenuToggle({ expanded }: { expanded: boolean }) {
  const hydrated = useHydrated();
  return (
    // react-bootstrap's toggle does not say whether the menu is open; a screen reader needs to know.
    <Navbar.Toggle
      aria-controls="main-nav"
      aria-label="Toggle navigation"
      aria-expanded={expanded}
      disabled={!hydrated}
    />
  );
}
