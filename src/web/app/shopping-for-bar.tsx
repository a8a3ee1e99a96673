import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { errorMessage } from '../lib/api-client.ts';
import { useGarage } from '../lib/current-vehicle.tsx';
import './shopping-for-bar.css';

/** Every page shows the bar; the dialog behind 'Change' (and the selector in it) loads when first opened. */
const GarageSwitcher = lazy(() =>
  import('../features/fitment/garage-switcher.tsx').then((module) => ({ default: module.GarageSwitcher })),
);

function toastError(error: unknown) {
  void import('react-toastify/unstyled').then(({ toast }) => toast.error(errorMessage(error)));
}

/**
 * Under the navigation bar: 'Shopping for: 2019 Yamaha YZ250F', with Change (another vehicle of the
 * garage, or a new one) and Clear. Shown once the shopper has a vehicle; outside the collapsing menu, so a phone
 * shows it too.
 */
export function ShoppingForBar() {
  const garage = useGarage();
  const [switching, setSwitching] = useState(false);
  const [opened, setOpened] = useState(false);
  const { current } = garage;
  if (!current && garage.vehicles.length === 0) return null;
  return (
    <aside className="shopping-for-bar" aria-label="Your vehicle">
      {/* One line on a phone too: a long vehicle name wraps beside the buttons rather than pushing them below. */}
      <Container className="d-flex align-items-center gap-2 py-1 small">
        <p className="shopping-for-bar-text mb-0" aria-live="polite">
          {current ? (
            <>
              Shopping for: <strong>{current.label}</strong>
            </>
          ) : (
            'Shopping for: any vehicle'
          )}
        </p>
        <div className="d-flex gap-2 ms-auto flex-shrink-0">
          <Button
            size="sm"
            variant="outline-light"
            aria-label={current ? 'Change vehicle' : 'Choose vehicle'}
            onClick={() => {
              setOpened(true);
              setSwitching(true);
            }}
          >
            {current ? 'Change' : 'Choose'}
          </Button>
          {current ? (
            <Button
              size="sm"
              variant="outline-light"
              aria-label="Clear vehicle"
              onClick={() => garage.setCurrent(null).catch(toastError)}
            >
              Clear
            </Button>
          ) : null}
        </div>
      </Container>
      {opened ? (
        <Suspense fallback={null}>
          <GarageSwitcher show={switching} onHide={() => setSwitching(false)} />
        </Suspense>
      ) : null}
    </aside>
  );
}
