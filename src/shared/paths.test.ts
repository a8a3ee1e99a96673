import { describe, expect, it } from 'vitest';
import { isAdminPath, isPagePath, paths } from './paths.ts';

describe('isAdminPath', () => {
  it('knows every admin page, as the router matches them (any case, a trailing slash)', () => {
    for (const path of [
      paths.dashboard.users,
      paths.dashboard.manageProducts,
      paths.dashboard.manageOrders,
      paths.dashboard.addProduct,
      paths.dashboard.jobs,
      '/Dashboard/Users/',
    ]) {
      expect(isAdminPath(path), path).toBe(true);
    }
  });

  it('leaves the pages every signed-in user may open alone', () => {
    for (const path of [
      paths.home,
      paths.parts,
      paths.dashboard.root,
      paths.dashboard.myProfile,
      '/dashboard/usersx',
    ]) {
      expect(isAdminPath(path), path).toBe(false);
    }
  });
});

describe('isPagePath', () => {
  it('knows every page of the router, with and without ids, as the router matches them', () => {
    for (const path of [
      paths.home,
      paths.parts,
      paths.part('0b4c6b4e-2f8e-4f55-9b4d-3a3c5e0f1a22'),
      paths.portfolio,
      paths.cart,
      paths.dashboard.root,
      paths.dashboard.myGarage,
      paths.dashboard.payment('x1'),
      paths.dashboard.order('x1'),
      paths.dashboard.payOrders(['a', 'b']),
      '/AllParts/',
    ]) {
      expect(isPagePath(path), path).toBe(true);
    }
  });

  it('refuses every other address', () => {
    for (const path of ['/allpart', '/allparts/x', '/part', '/part/a/b', '/dashboard/x', '/myportfolio']) {
      expect(isPagePath(path), path).toBe(false);
    }
  });
});
