/**
 * The first segment of every cached query, one per kind of data. Each feature builds its query keys under its root;
 * a change to data another feature shows (deleting an order puts its PCS back in stock) invalidates that root
 * without importing the other feature.
 */
export const queryRoots = {
  parts: ['parts'],
  orders: ['orders'],
  reviews: ['reviews'],
  auth: ['auth'],
  users: ['users'],
  profile: ['profile'],
  payments: ['payments'],
  jobs: ['jobs'],
  /** The vehicle lists (selector, admin pickers) and the signed-in user's garage. */
  vehicles: ['vehicles'],
  garage: ['garage'],
  /** The signed-in customer's cart (checkout empties it) and address book. */
  cart: ['cart'],
  addresses: ['addresses'],
} as const;
