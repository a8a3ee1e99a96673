import type { FitmentGroup } from '../../../shared/schemas/fitment.ts';
import './fitment.css';

type Range = FitmentGroup['ranges'][number];

/** "2014–2018", "2019", with the variant after it when the range is for one: "2021 (M Package)". */
export function formatRange(range: Range): string {
  const years = range.yearFrom === range.yearTo ? String(range.yearFrom) : `${range.yearFrom}–${range.yearTo}`;
  return range.variant ? `${years} (${range.variant})` : years;
}

/** "Yamaha YZ250F 2014–2018, 2019–2023": one group in a sentence. */
export function formatGroup(group: FitmentGroup): string {
  return `${group.make} ${group.model} ${group.ranges.map(formatRange).join(', ')}`;
}

/** A short list of the vehicles a part fits, for a sentence: the first few groups and how many more. */
export function summariseFitment(groups: FitmentGroup[], max = 4): string {
  const shown = groups.slice(0, max).map(formatGroup);
  const more = groups.length - shown.length;
  return more > 0 ? `${shown.join('; ')} and ${more} more` : shown.join('; ');
}

/**
 * A part's full fitment, grouped by make and then model, with its year ranges (the server's grouping and order):
 * one term per make, one line per model.
 */
export function FitmentList({
  groups,
  universal,
  headingId = 'fitment-title',
}: {
  groups: FitmentGroup[];
  universal: boolean;
  headingId?: string;
}) {
  const makes = new Map<string, { make: string; models: FitmentGroup[] }>();
  for (const group of groups) {
    const entry = makes.get(group.makeId) ?? { make: group.make, models: [] };
    entry.models.push(group);
    makes.set(group.makeId, entry);
  }
  return (
    <section aria-labelledby={headingId} className="bg-white border rounded p-3 p-md-4">
      <h2 id={headingId} className="h5 mb-3">
        Vehicle Fitment
      </h2>
      {universal ? (
        <p className="mb-0">Universal fit: this part fits every vehicle.</p>
      ) : groups.length === 0 ? (
        <p className="mb-0 text-body-secondary">No vehicles are listed for this part yet. Ask us if it fits yours.</p>
      ) : (
        <dl className="fitment-list mb-0">
          {[...makes.entries()].map(([makeId, { make, models }]) => (
            <div key={makeId}>
              <dt>{make}</dt>
              <dd>
                <ul className="list-unstyled mb-0">
                  {models.map((group) => (
                    <li key={group.modelId}>
                      {group.model}: {group.ranges.map(formatRange).join(', ')}
                    </li>
                  ))}
                </ul>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
