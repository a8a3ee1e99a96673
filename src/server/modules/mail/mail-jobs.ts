import type { AppConfig } from '../../config.ts';
import type { MailDeliverySettings } from './mail-delivery.ts';
import { type DbExecutor, purgeOldMail } from './mail-outbox.ts';

/** The delivery settings from the checked configuration. */
export function mailDeliverySettings(
  config: Pick<AppConfig, 'MAIL_FROM' | 'MAIL_MAX_ATTEMPTS' | 'MAIL_RETRY_BASE_SECONDS'>,
  holder?: string,
): MailDeliverySettings {
  return {
    from: config.MAIL_FROM,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    retryBaseSeconds: config.MAIL_RETRY_BASE_SECONDS,
    ...(holder ? { holder } : {}),
  };
}

/**
 * Housekeeping task (for `createHousekeepingJob`): sent and given-up mails go after `keepDays`. Their recipients are
 * personal data and the outbox is not an archive.
 */
export function purgeOldMailTask(db: DbExecutor, options: { keepDays?: number } = {}) {
  return {
    name: 'purge-old-mail',
    async run() {
      await purgeOldMail(db, { now: new Date(), keepDays: options.keepDays ?? 30 });
    },
  };
}
