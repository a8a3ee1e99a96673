import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import './cart-fit.css';

/** Whether one cart line fits the shopper's chosen vehicle, as the app found out from the parts API. */
export interface LineFit {
  /** The fit badge for the chosen vehicle. */
  badge: ReactNode;
  /** The badge's words when the part does not fit ('Does not fit your 2019 Yamaha MT-07'), else null. */
  misfit: string | null;
}

/**
 * The cart's lines against the chosen vehicle, given by the app to the cart and checkout pages (which do not ask the
 * fitment feature themselves): null without a chosen vehicle.
 */
export interface CartFit {
  vehicleLabel: string;
  /** A line's fit; undefined while it is being asked for. */
  of(partId: string): LineFit | undefined;
}

/** How many of these lines do not fit the chosen vehicle. */
export function misfitCount(fit: CartFit | null | undefined, partIds: readonly string[]): number {
  if (!fit) return 0;
  return partIds.filter((partId) => fit.of(partId)?.misfit).length;
}

/** Above the lines: how many parts do not fit the chosen vehicle, so none is ordered by mistake. */
export function CartFitWarning({ fit, partIds }: { fit: CartFit | null | undefined; partIds: readonly string[] }) {
  const count = misfitCount(fit, partIds);
  if (!fit || count === 0) return null;
  return (
    <Alert variant="warning" className="cart-fit-warning">
      <strong>
        {count === 1 ? '1 part' : `${count} parts`} in your cart {count === 1 ? 'does' : 'do'} not fit your{' '}
        {fit.vehicleLabel}.
      </strong>{' '}
      Check {count === 1 ? 'it' : 'them'} before you order, or remove {count === 1 ? 'it' : 'them'}.
    </Alert>
  );
}

/** Under a line's name: its fit badge, and a warning when it does not fit. */
export function LineFitNote({ fit }: { fit: LineFit | undefined }): ReactNode {
  if (!fit) return null;
  return (
    <div className="line-fit">
      {fit.badge}
      {fit.misfit ? (
        <p className="line-fit-warning small fw-semibold mb-0">
          <span aria-hidden="true">⚠ </span>Check this part before you order it.
        </p>
      ) : null}
    </div>
  );
}
