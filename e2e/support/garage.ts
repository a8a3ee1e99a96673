import type { APIRequestContext } from '@playwright/test';

/**
 * Puts the demo seed's 2019 vehicle of this label (e.g. '2019 Yamaha YZ250F') in the account's garage through the
 * real API, and answers its id: the account then shops for it.
 */
export async function putInGarage(request: APIRequestContext, token: string, label: string): Promise<string> {
  const vehicles = (await (await request.get('/api/vehicle?year=2019&limit=100')).json()) as {
    id: string;
    label: string;
  }[];
  const vehicle = vehicles.find((candidate) => candidate.label === label);
  if (!vehicle) throw new Error(`no ${label} in the demo seed`);
  const added = await request.post('/api/garage', {
    headers: { authorization: `Bearer ${token}` },
    data: { vehicleId: vehicle.id },
  });
  if (added.status() !== 201) throw new Error(`adding ${label} to the garage failed: ${added.status()}`);
  return vehicle.id;
}
