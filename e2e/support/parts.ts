import type { APIRequestContext } from '@playwright/test';

export interface PartFields {
  name?: string;
  desription?: string;
  price?: number;
  availablequantity?: number;
  minimunorder?: number;
}

/**
 * A part of the test's own, added by an admin through the real API (spec field names), so its stock and orders are
 * the test's to count. Unnamed, it gets a unique "Sprocket …" name.
 */
export async function addPartViaApi(
  request: APIRequestContext,
  adminToken: string,
  fields: PartFields = {},
): Promise<{ _id: string; name: string }> {
  const res = await request.post('/api/part', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: {
      name: `Sprocket ${Math.random().toString(36).slice(2, 8)}`,
      desription: 'Part for browser tests.',
      img: '/images/parts/brake-disc.svg',
      price: 35,
      availablequantity: 40,
      minimunorder: 1,
      ...fields,
    },
  });
  if (!res.ok()) throw new Error(`adding a part failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as { _id: string; name: string };
}
