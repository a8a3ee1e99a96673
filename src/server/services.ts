import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { AccountsService } from './modules/accounts/accounts-service.ts';
import { GoogleSignIn } from './modules/accounts/google-sign-in.ts';
import { ProfileService } from './modules/accounts/profile-service.ts';
import { SessionRepository } from './modules/accounts/session-repository.ts';
import { UserRepository } from './modules/accounts/user-repository.ts';
import { CatalogService } from './modules/catalog/catalog-service.ts';
import { PartRepository } from './modules/catalog/part-repository.ts';
import { OrderPayments } from './modules/orders/order-payment-port.ts';
import { OrderRepository } from './modules/orders/order-repository.ts';
import { OrdersService } from './modules/orders/orders-service.ts';
import { PaymentRepository } from './modules/payments/payment-repository.ts';
import { createPaymentProvider } from './modules/payments/payment-settings.ts';
import { PaymentsService } from './modules/payments/payments-service.ts';
import { ReviewRepository } from './modules/reviews/review-repository.ts';
import { ReviewsService } from './modules/reviews/reviews-service.ts';

/** Everything the routes use, built once per app. */
interface Services {
  /** The session store; the auth plugin sees it only as its `SessionLookup` port. */
  sessions: SessionRepository;
  accounts: AccountsService;
  profiles: ProfileService;
  google: GoogleSignIn;
  catalog: CatalogService;
  reviews: ReviewsService;
  orders: OrdersService;
  payments: PaymentsService;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's one set of services (tests reach in here too, e.g. to open a session). */
    services: Services;
    /** The same session store as `services.sessions`, for the test fixtures that open sessions directly. */
    sessions: SessionRepository;
  }
}

interface ServiceSettings {
  sessionSecret: string;
  log: FastifyBaseLogger;
}

/**
 * The one composition point (ADR 006): every repository, service and the payment provider is built here, once, and
 * handed its collaborators. Nothing else calls `new …Repository` or `new …Service`. Modules meet only through
 * ports: orders gets the payments module as its `PaymentGuard` and the catalogue as its `StockRelease`; payments
 * gets the orders module's `OrderPaymentPort`; the auth plugin gets the session store as its `SessionLookup`.
 */
export function createServices(db: Database, config: AppConfig, settings: ServiceSettings): Services {
  const users = new UserRepository(db);
  const sessions = new SessionRepository(db, settings.sessionSecret, config.SESSION_TTL_HOURS);
  const accounts = new AccountsService(db, users, sessions);

  const parts = new PartRepository(db);
  const orderRecords = new OrderRepository(db);
  const paymentRecords = new PaymentRepository(db);
  const payments = new PaymentsService(
    db,
    createPaymentProvider(config, paymentRecords),
    paymentRecords,
    new OrderPayments(orderRecords),
  );

  return {
    sessions,
    accounts,
    profiles: new ProfileService(users),
    google: new GoogleSignIn(config, db, users, accounts, settings.log),
    catalog: new CatalogService(parts),
    reviews: new ReviewsService(new ReviewRepository(db)),
    orders: new OrdersService(db, orderRecords, parts, payments),
    payments,
  };
}
