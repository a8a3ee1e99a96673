import type { FastifyBaseLogger } from 'fastify';
import { type AppConfig, publicUrl } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { AccountTokenRepository } from './modules/accounts/account-token-repository.ts';
import { AccountsService, accountLinks } from './modules/accounts/accounts-service.ts';
import { GoogleSignIn } from './modules/accounts/google-sign-in.ts';
import { PasswordHasher, passwordHashParams } from './modules/accounts/password-hasher.ts';
import { ProfileService } from './modules/accounts/profile-service.ts';
import { SessionRepository } from './modules/accounts/session-repository.ts';
import { UserRepository } from './modules/accounts/user-repository.ts';
import { CatalogService } from './modules/catalog/catalog-service.ts';
import { PartRepository } from './modules/catalog/part-repository.ts';
import { GarageRepository } from './modules/fitment/garage-repository.ts';
import { GarageService } from './modules/fitment/garage-service.ts';
import { PartFitmentRepository } from './modules/fitment/part-fitment-repository.ts';
import { PartFitments } from './modules/fitment/part-fitments.ts';
import { VehicleRepository } from './modules/fitment/vehicle-repository.ts';
import { VehiclesService } from './modules/fitment/vehicles-service.ts';
import { type BackgroundJobs, createBackgroundJobs } from './modules/jobs/background-jobs.ts';
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
  vehicles: VehiclesService;
  garage: GarageService;
  reviews: ReviewsService;
  orders: OrdersService;
  payments: PaymentsService;
  /** The job runner and mail delivery; started and stopped with the app (app.ts). */
  jobs: BackgroundJobs;
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
 * The one composition point (ADR 006): every repository, service, the payment provider, the job runner and mail
 * delivery are built here, once, and handed their collaborators. Nothing else calls `new …Repository` or
 * `new …Service`. Modules meet only through ports: orders gets the payments module as its `PaymentGuard` and the
 * catalogue as its `StockRelease`; payments gets the orders module's `OrderPaymentPort`; the auth plugin gets the
 * session store as its `SessionLookup`; accounts gets mail delivery as its `MailKick`.
 */
export function createServices(database: DatabaseHandle, config: AppConfig, settings: ServiceSettings): Services {
  const { db } = database;
  const users = new UserRepository(db);
  const sessions = new SessionRepository(db, settings.sessionSecret, config.SESSION_TTL_HOURS);
  const tokens = new AccountTokenRepository(db, settings.sessionSecret);
  const links = accountLinks(publicUrl(config));
  let google: GoogleSignIn | undefined;
  const jobs = createBackgroundJobs({
    database,
    config,
    log: settings.log,
    // The accounts module's chores, formerly a timer in accounts-routes.ts.
    housekeeping: [
      { name: 'expired-sessions', run: () => sessions.deleteExpired() },
      { name: 'abandoned-google-sign-ins', run: async () => google?.deleteExpiredStates() },
      { name: 'spent-account-tokens', run: async () => void (await tokens.deleteSpent()) },
    ],
  });
  const accounts = new AccountsService({
    db,
    users,
    sessions,
    tokens,
    hasher: new PasswordHasher(passwordHashParams(config)),
    mail: jobs,
    links,
    log: settings.log,
  });
  google = new GoogleSignIn({ config, db, users, sessions, tokens, accounts, mail: jobs, links, log: settings.log });

  // The catalogue sees the fitment module as its `PartFitmentPort` (ADR 010).
  const partFitments = new PartFitments(new PartFitmentRepository(db));
  const parts = new PartRepository(db, partFitments);
  const vehicleRecords = new VehicleRepository(db);
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
    google,
    catalog: new CatalogService(parts, partFitments),
    vehicles: new VehiclesService(vehicleRecords),
    garage: new GarageService(new GarageRepository(db), vehicleRecords),
    reviews: new ReviewsService(new ReviewRepository(db)),
    orders: new OrdersService(db, orderRecords, parts, payments),
    payments,
    jobs,
  };
}
