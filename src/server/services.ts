import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { CATALOG_IMPORT_MAX_BYTES } from '../shared/schemas/catalog-transfer.ts';
import { type AppConfig, publicUrl } from './config.ts';
import type { DatabaseHandle, Transaction } from './db/client.ts';
import { AccountTokenRepository } from './modules/accounts/account-token-repository.ts';
import { AccountsService, accountLinks } from './modules/accounts/accounts-service.ts';
import { AddressBook } from './modules/accounts/address-book.ts';
import { GoogleSignIn } from './modules/accounts/google-sign-in.ts';
import { PasswordHasher, passwordHashParams } from './modules/accounts/password-hasher.ts';
import { ProfileService } from './modules/accounts/profile-service.ts';
import { SessionRepository } from './modules/accounts/session-repository.ts';
import { UserRepository } from './modules/accounts/user-repository.ts';
import { CartRepository } from './modules/cart/cart-repository.ts';
import { CartService } from './modules/cart/cart-service.ts';
import { CatalogService } from './modules/catalog/catalog-service.ts';
import { PartBulkRepository } from './modules/catalog/part-bulk-repository.ts';
import { PartRepository } from './modules/catalog/part-repository.ts';
import { PartSitemapRepository } from './modules/catalog/part-sitemap-repository.ts';
import { CatalogExportService } from './modules/catalog-transfer/catalog-export-service.ts';
import { CatalogImportService } from './modules/catalog-transfer/catalog-import-service.ts';
import { ImportRepository } from './modules/catalog-transfer/import-repository.ts';
import { GarageRepository } from './modules/fitment/garage-repository.ts';
import { GarageService } from './modules/fitment/garage-service.ts';
import { KnownVehicles } from './modules/fitment/known-vehicles.ts';
import { modelKey, PartFitmentBulkRepository } from './modules/fitment/part-fitment-bulk-repository.ts';
import { PartFitmentRepository } from './modules/fitment/part-fitment-repository.ts';
import { PartFitments } from './modules/fitment/part-fitments.ts';
import { VehicleImportRepository } from './modules/fitment/vehicle-import-repository.ts';
import { VehicleRepository } from './modules/fitment/vehicle-repository.ts';
import { VehiclesService } from './modules/fitment/vehicles-service.ts';
import { purgeExpiredKeys } from './modules/idempotency/idempotency-keys.ts';
import { type BackgroundJobs, createBackgroundJobs } from './modules/jobs/background-jobs.ts';
import { orderLinks } from './modules/mail/order-mails.ts';
import { PartPhotoRepository } from './modules/media/part-photo-repository.ts';
import { PartPhotosService } from './modules/media/part-photos-service.ts';
import { DiskPhotoStorage } from './modules/media/photo-storage.ts';
import { CheckoutService } from './modules/orders/checkout-service.ts';
import { OrderExportRepository } from './modules/orders/order-export-repository.ts';
import { OrderPayments } from './modules/orders/order-payment-port.ts';
import { type HoldLimits, OrderRepository } from './modules/orders/order-repository.ts';
import { OrdersService } from './modules/orders/orders-service.ts';
import { PaymentReminderRepository } from './modules/orders/payment-reminder-repository.ts';
import { PaymentReminders, paymentReminderPeriodSeconds } from './modules/orders/payment-reminders.ts';
import { PaymentRepository } from './modules/payments/payment-repository.ts';
import { createPaymentProvider } from './modules/payments/payment-settings.ts';
import { PaymentsService } from './modules/payments/payments-service.ts';
import { RefundRepository } from './modules/payments/refund-repository.ts';
import { RefundsService } from './modules/payments/refunds-service.ts';
import { ReviewRepository } from './modules/reviews/review-repository.ts';
import { ReviewsService } from './modules/reviews/reviews-service.ts';
import { SitemapService } from './modules/seo/sitemap-service.ts';

/** How often the order-expiry job looks for unpaid orders past ORDER_HOLD_HOURS (an hour's hold ends within this). */
const ORDER_EXPIRY_PERIOD_SECONDS = 300;

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
  /** The please-pay mail for orders still unpaid PAYMENT_REMINDER_DELAY_SECONDS after placing (its job's work). */
  paymentReminders: PaymentReminders;
  payments: PaymentsService;
  /** Admin refunds and Stripe's refund and dispute webhooks. */
  refunds: RefundsService;
  /** The cart, checkout and the address book (ADR 011). */
  cart: CartService;
  checkout: CheckoutService;
  addressBook: AddressBook;
  /** The job runner and mail delivery; started and stopped with the app (app.ts). */
  jobs: BackgroundJobs;
  /** CSV import and export of the catalogue (the catalog-transfer module, ADR 014). */
  catalogImports: CatalogImportService;
  catalogExports: CatalogExportService;
  /** A part's uploaded photos (the media module, ADR 013). */
  photos: PartPhotosService;
  /** `robots.txt` and the sitemaps (the seo module). */
  sitemap: SitemapService;
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
  /** This instance's name across restarts (instance-identity.ts): mail leases and imports are marked with it. */
  instanceId: string;
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
  // Built after the jobs (they kick its mail); the expiry job reads it when the runner starts.
  let orders: OrdersService | undefined;
  let payments: PaymentsService | undefined;
  let paymentReminders: PaymentReminders | undefined;
  const jobs = createBackgroundJobs({
    database,
    config,
    log: settings.log,
    instanceId: settings.instanceId,
    scheduled: () => [
      // Unpaid orders past ORDER_HOLD_HOURS are cancelled, their stock released and their buyers mailed.
      {
        name: 'order-expiry',
        every: { seconds: ORDER_EXPIRY_PERIOD_SECONDS },
        run: async () => void (await orders?.expireOverdue()),
      },
      // Orders still unpaid PAYMENT_REMINDER_DELAY_SECONDS after placing: their buyers are mailed how to pay.
      {
        name: 'payment-reminder',
        every: { seconds: paymentReminderPeriodSeconds(config.PAYMENT_REMINDER_DELAY_SECONDS) },
        run: async () => void (await paymentReminders?.remindDue()),
      },
      // Payments the provider took but whose confirmation never ran (a crash, a closed tab) mark their orders paid.
      {
        name: 'payment-reconciliation',
        every: { seconds: config.PAYMENT_RECONCILE_SECONDS },
        run: async () => {
          const reconciled = await payments?.reconcilePending();
          if (reconciled && reconciled.paid + reconciled.cancelled > 0) {
            settings.log.info(reconciled, 'open payments settled from what the payment provider says');
          }
        },
      },
    ],
    // The accounts module's chores, formerly a timer in accounts-routes.ts.
    housekeeping: [
      { name: 'expired-sessions', run: () => sessions.deleteExpired() },
      { name: 'abandoned-google-sign-ins', run: async () => google?.deleteExpiredStates() },
      { name: 'spent-account-tokens', run: async () => void (await tokens.deleteSpent()) },
      // Keys outlive their retries by IDEMPOTENCY_KEY_TTL_HOURS; then they are only personal data and bulk.
      {
        name: 'expired-idempotency-keys',
        run: async () => void (await purgeExpiredKeys(db, config.IDEMPOTENCY_KEY_TTL_HOURS)),
      },
      // Files of photos (ADR 013) whose rows are gone (a deleted part's), an hour after they were written.
      { name: 'unused-photo-files', run: async () => void (await photos.sweepUnusedFiles()) },
    ],
  });
  const accounts = new AccountsService({
    db,
    users,
    sessions,
    tokens,
    hasher: new PasswordHasher(passwordHashParams(config), config.PASSWORD_HASH_QUEUE_MAX),
    mail: jobs,
    links,
    log: settings.log,
  });
  google = new GoogleSignIn({ config, db, users, sessions, tokens, accounts, mail: jobs, links, log: settings.log });

  // The catalogue sees the fitment module as its `PartFitmentPort` (ADR 010).
  // One memory of existing vehicles: the catalogue's port reads it, the vehicles service forgets what it deletes.
  const knownVehicles = new KnownVehicles();
  const partFitments = new PartFitments(new PartFitmentRepository(db), knownVehicles);
  const parts = new PartRepository(db, partFitments);
  // The media module (ADR 013) sees the catalogue as its `PartImagePort`: the part locked in a photo
  // write's transaction, and its `img` set to the main photo's URL there. The catalogue reads photos back through
  // `photos.photosOf`.
  const photos = new PartPhotosService(new PartPhotoRepository(db), new DiskPhotoStorage(config.uploadsDir), {
    lock: (tx, partId) => parts.lock(tx, partId),
    exists: async (partId) => (await parts.findById(partId)) !== undefined,
    setImage: async (tx, partId, img) => void (await parts.update(tx, partId, { img })),
  });
  const vehicleRecords = new VehicleRepository(db);
  const orderRecords = new OrderRepository(db);
  const paymentRecords = new PaymentRepository(db);
  const orderLinkSet = orderLinks(publicUrl(config));
  // The order module's view of the catalogue: stock given back.
  const orderStock = {
    release: (tx: Transaction, partId: string, quantity: number) => parts.release(tx, partId, quantity),
  };
  const orderPayments = new OrderPayments(orderRecords, orderStock, {
    links: orderLinkSet,
    notifyEmail: config.ORDER_NOTIFY_EMAIL,
    adminEmails: (tx) => users.adminEmails(tx),
  });
  const provider = createPaymentProvider(config, paymentRecords);
  payments = new PaymentsService(db, provider, paymentRecords, orderPayments, () => jobs.kick());
  const refunds = new RefundsService({
    db,
    provider,
    refunds: new RefundRepository(db),
    payments: paymentRecords,
    orders: orderPayments,
    mail: jobs,
    links: orderLinkSet,
  });
  const holdLimits: HoldLimits = {
    perCustomer: config.ORDER_HOLD_LIMIT ?? 'half',
    unverified: config.ORDER_UNVERIFIED_HOLD_LIMIT,
    perAddress: config.ORDER_ADDRESS_HOLD_LIMIT ?? 'half',
    newAccountsPercent: config.ORDER_NEW_ACCOUNT_HOLD_PERCENT,
  };
  orders = new OrdersService({
    db,
    orders: orderRecords,
    stock: orderStock,
    paymentGuard: payments,
    refundGuard: refunds,
    mail: jobs,
    settings: {
      holdHours: config.ORDER_HOLD_HOURS,
      holdLimits,
      addressSecret: settings.sessionSecret,
      links: orderLinkSet,
    },
  });

  // The cart (ADR 011) sees the catalogue as its `CartCatalogPort`; checkout sees the cart as its
  // `CheckoutCartPort` and the address book as its `AddressBookPort`.
  const cartRecords = new CartRepository(db);
  const addressBook = new AddressBook(db);
  const checkout = new CheckoutService({
    db,
    orders: orderRecords,
    cart: cartRecords,
    addresses: addressBook,
    holdLimits,
    addressSecret: settings.sessionSecret,
  });
  paymentReminders = new PaymentReminders({
    records: new PaymentReminderRepository(db),
    mail: jobs,
    settings: {
      delaySeconds: config.PAYMENT_REMINDER_DELAY_SECONDS,
      holdHours: config.ORDER_HOLD_HOURS,
      links: orderLinkSet,
    },
  });

  // Import and export (ADR 014) see the catalogue, the fitment module and the orders module through their
  // bulk repositories as the catalog-transfer module's ports.
  const catalogBulk = new PartBulkRepository(db);
  const fitmentBulk = new PartFitmentBulkRepository(db);
  const catalogImports = new CatalogImportService({
    db,
    imports: new ImportRepository(db),
    catalog: catalogBulk,
    fitment: fitmentBulk,
    modelKey,
    log: settings.log,
    settings: {
      spoolDir: os.tmpdir(),
      maxBytes: CATALOG_IMPORT_MAX_BYTES,
      batchSize: 500,
      instanceId: settings.instanceId,
    },
  });
  const catalogExports = new CatalogExportService(catalogBulk, fitmentBulk, new OrderExportRepository(db));

  return {
    catalogImports,
    catalogExports,
    cart: new CartService(cartRecords, parts),
    checkout,
    addressBook,
    sessions,
    accounts,
    profiles: new ProfileService(users),
    google,
    catalog: new CatalogService(parts, partFitments, photos),
    vehicles: new VehiclesService(vehicleRecords, knownVehicles, new VehicleImportRepository(db)),
    garage: new GarageService(new GarageRepository(db), vehicleRecords),
    reviews: new ReviewsService(new ReviewRepository(db)),
    orders,
    paymentReminders,
    payments,
    refunds,
    jobs,
    photos,
    // `robots.txt` and the sitemaps read part ids through the catalogue's sitemap repository (its port).
    sitemap: new SitemapService(new PartSitemapRepository(db), publicUrl(config)),
  };
}
