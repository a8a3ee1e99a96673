import { describe, expect, it } from 'vitest';
import { normalizePartNumber } from './part-numbers.ts';

describe('normalizePartNumber', () => {
  it('treats case, spaces, dashes and dots as the same number', () => {
    const spellings = ['kmc 520', 'KMC-520', 'kmc520', 'K.M.C 5-2-0', ' kmc_520 ', 'KMC/520', 'ＫＭＣ５２０'];
    expect(new Set(spellings.map(normalizePartNumber))).toEqual(new Set(['kmc520']));
  });

  it('keeps letters and digits that make numbers different', () => {
    expect(normalizePartNumber('FA-185')).not.toBe(normalizePartNumber('FA-186'));
    expect(normalizePartNumber('--..  ')).toBe('');
  });
});
