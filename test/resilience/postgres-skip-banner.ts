import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';

const HOW_TO_RUN =
  'To run them: start PostgreSQL and Redis (redis-server --daemonize yes), then\n' +
  '  TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:resilience\n' +
  '(the database named there must exist; each test creates and drops databases of its own beside it).';

function banner(lines: string[]): string {
  const rule = '!'.repeat(100);
  return `\n${rule}\n${lines.map((line) => `!! ${line}`).join('\n')}\n${rule}\n`;
}

function counts(modules: readonly TestModule[]): { total: number; skipped: number } {
  let total = 0;
  let skipped = 0;
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      total++;
      if (test.options.mode === 'skip' || test.result().state === 'skipped') skipped++;
    }
  }
  return { total, skipped };
}

/**
 * Most of the resilience suite needs PostgreSQL. Without TEST_DATABASE_URL those tests are skipped, and a green
 * run that tested one case out of nine must not look like a pass: this says so loudly at the start and the end.
 */
export class PostgresSkipBanner implements Reporter {
  #vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  async onTestRunStart(specifications: readonly TestSpecification[]): Promise<void> {
    if (process.env.TEST_DATABASE_URL || !this.#vitest) return;
    // A static read of the files (nothing runs): runIf(process.env.TEST_DATABASE_URL) tests show as skipped.
    const { total, skipped } = counts(await this.#vitest.parseSpecifications([...specifications]));
    console.warn(
      banner([
        `TEST_DATABASE_URL is not set: ${skipped} of the ${total} resilience tests need PostgreSQL and will be SKIPPED.`,
        ...HOW_TO_RUN.split('\n'),
      ]),
    );
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    if (process.env.TEST_DATABASE_URL) return;
    const { total, skipped } = counts(modules);
    console.warn(
      banner([
        `SKIPPED ${skipped} of ${total} resilience tests: TEST_DATABASE_URL is not set, so only ${total - skipped} ran.`,
        ...HOW_TO_RUN.split('\n'),
      ]),
    );
  }
}
