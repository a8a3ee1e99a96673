import { freePort } from '../../test/support/server-process.ts';

/*
 * No fixed port: two runs on one machine must not meet. playwright.config.ts (and so this module) is evaluated in
 * the runner first, which asks the OS for a free port and puts it in the environment; the browser-test server and
 * the workers started after it inherit E2E_PORT and agree on it. Set E2E_PORT yourself to choose one.
 */
process.env.E2E_PORT ||= String(await freePort());

export const E2E_PORT = Number(process.env.E2E_PORT);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The admin the browser-test server seeds (the demo seed takes ADMIN_EMAIL / ADMIN_PASSWORD). */
export const E2E_ADMIN = { email: 'admin@redline.dev', password: 'e2e-admin-password' } as const;

/** The dashboard menu of an admin, in its order (spec §2, plus the entries the shop added). */
export const ADMIN_DASHBOARD_ENTRIES = [
  'My Profile',
  'Users',
  'Manage Products',
  'Manage Orders',
  'Add A Product',
  'Import Products',
  'Jobs',
  'Vehicles',
  'My Garage',
] as const;
