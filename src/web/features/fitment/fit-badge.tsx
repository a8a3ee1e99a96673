import type { FitStatus } from '../../../shared/schemas/fitment.ts';
import './fitment.css';

/** The words of each fit status, used by the badge and by the purchase screen's confirmation. */
export function fitText(fit: FitStatus, vehicleLabel: string): string {
  if (fit === 'fits') return `Fits your ${vehicleLabel}`;
  if (fit === 'universal') return 'Universal fit';
  return `Does not fit your ${vehicleLabel}`;
}

const classes: Record<FitStatus, string> = {
  fits: 'fit-badge-fits',
  universal: 'fit-badge-universal',
  doesNotFit: 'fit-badge-no',
};

const marks: Record<FitStatus, string> = { fits: '✓', universal: '◎', doesNotFit: '✕' };

/**
 * Whether a part fits the shopper's current vehicle: 'Fits your 2019 Yamaha YZ250F' (green), 'Universal fit', or
 * 'Does not fit your …'. Nothing without a vehicle (the part then carries no `fit`). The mark is decoration: the
 * words say it all, so colour is never the only signal.
 */
export function FitBadge({
  fit,
  vehicleLabel,
  className = 'mb-2',
}: {
  fit: FitStatus | undefined;
  vehicleLabel: string | undefined;
  /** The paragraph's classes (its spacing where it stands). */
  className?: string;
}) {
  if (!fit || !vehicleLabel) return null;
  return (
    <p className={className}>
      <span className={`fit-badge ${classes[fit]}`} data-fit={fit}>
        <span aria-hidden="true">{marks[fit]} </span>
        {fitText(fit, vehicleLabel)}
      </span>
    </p>
  );
}
