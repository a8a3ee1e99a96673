import { describe, expect, it } from 'vitest';
import type { FitmentGroup } from '../../../shared/schemas/fitment.ts';
import { formatGroup, formatRange, summariseFitment } from './fitment-list.tsx';

const group = (model: string, ranges: FitmentGroup['ranges']): FitmentGroup => ({
  makeId: 'y',
  make: 'Yamaha',
  modelId: model,
  model,
  type: 'motorcycle',
  ranges,
});

describe('fitment wording', () => {
  it('names year ranges, single years and variants', () => {
    expect(formatRange({ yearFrom: 2014, yearTo: 2018, variant: null })).toBe('2014–2018');
    expect(formatRange({ yearFrom: 2021, yearTo: 2021, variant: 'M Package' })).toBe('2021 (M Package)');
    expect(
      formatGroup(
        group('YZ250F', [
          { yearFrom: 2014, yearTo: 2018, variant: null },
          { yearFrom: 2019, yearTo: 2023, variant: null },
        ]),
      ),
    ).toBe('Yamaha YZ250F 2014–2018, 2019–2023');
  });

  it('summarises a long fitment as the first few and how many more', () => {
    const groups = ['A', 'B', 'C', 'D', 'E', 'F'].map((model) =>
      group(model, [{ yearFrom: 2020, yearTo: 2021, variant: null }]),
    );
    expect(summariseFitment(groups.slice(0, 2))).toBe('Yamaha A 2020–2021; Yamaha B 2020–2021');
    expect(summariseFitment(groups)).toBe(
      'Yamaha A 2020–2021; Yamaha B 2020–2021; Yamaha C 2020–2021; Yamaha D 2020–2021 and 2 more',
    );
  });
});
