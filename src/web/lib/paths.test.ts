import { describe, expect, it } from 'vitest';
import { isAdminPath, paths } from './paths.ts';

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
