import { describe, expect, it } from 'vitest';
import type { PartDetails } from '../../../shared/schemas/parts.ts';
import { initialProductValues, productFormSchema } from './product-form-schema.ts';

const base = {
  name: 'Brake Pads',
  desription: '',
  price: 42,
  availablequantity: 10,
  minimunorder: 1,
  img: '/images/parts/brake-pads.svg',
};

describe('productFormSchema', () => {
  it('sends blank boxes as none and OEM numbers as a list, and rows without their make', () => {
    const parsed = productFormSchema.parse({
      ...base,
      brand: '  ',
      mpn: '',
      category: '',
      oemNumbers: ' 5XC-W0045-00 ,\n\n1SR-W0045-00 ',
      universal: false,
      fitment: [{ makeId: 'make-1', modelId: 'model-1', yearFrom: 2014, yearTo: 2018, variant: ' ' }],
    });
    expect(parsed).toMatchObject({
      brand: null,
      mpn: null,
      category: null,
      oemNumbers: ['5XC-W0045-00', '1SR-W0045-00'],
      fitment: [{ modelId: 'model-1', yearFrom: 2014, yearTo: 2018, variant: null }],
    });
    expect(parsed.fitment?.[0]).not.toHaveProperty('makeId');
  });

  it('speaks the shared schema’s messages', () => {
    const result = productFormSchema.safeParse({
      ...base,
      brand: '',
      mpn: '---',
      category: '',
      oemNumbers: '',
      universal: false,
      fitment: [{ makeId: '', modelId: '', yearFrom: 2020, yearTo: 2019, variant: '' }],
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'mpn: Part Number Must Contain A Letter Or Digit',
        'fitment.0.makeId: Choose A Make',
        'fitment.0.modelId: Choose A Model',
      ]),
    );
  });

  it('rebuilds one row per fitment range when editing', () => {
    const part = {
      ...base,
      _id: 'p1',
      email: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      brand: { slug: 'ebc', name: 'EBC' },
      mpn: 'FA185',
      oemNumbers: ['A', 'B'],
      category: { slug: 'brake-pads', name: 'Pads', path: ['Brakes', 'Pads'] },
      universal: false,
      fitment: [
        {
          makeId: 'm',
          make: 'Yamaha',
          modelId: 'yz',
          model: 'YZ250F',
          type: 'motorcycle',
          ranges: [
            { yearFrom: 2014, yearTo: 2018, variant: null },
            { yearFrom: 2019, yearTo: 2023, variant: 'Monster' },
          ],
        },
      ],
      photos: [],
    } satisfies PartDetails;
    expect(initialProductValues(part)).toMatchObject({
      brand: 'EBC',
      oemNumbers: 'A\nB',
      category: 'brake-pads',
      fitment: [
        { makeId: 'm', modelId: 'yz', yearFrom: 2014, yearTo: 2018, variant: '' },
        { makeId: 'm', modelId: 'yz', yearFrom: 2019, yearTo: 2023, variant: 'Monster' },
      ],
    });
  });
});
