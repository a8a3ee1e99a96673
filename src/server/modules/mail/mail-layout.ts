import { createElement as h, type ReactNode } from 'react';

/** What every template returns: ready to hand to `enqueueMail`. */
export interface MailContent {
  subject: string;
  html: string;
  text: string;
}

/**
 * A mail's body as data. Every string is plain text: React escapes it in the HTML part, and the text part prints it
 * as is, so user-provided text (names, part names) can never become markup.
 */
export type MailBlock =
  | { kind: 'paragraph'; text: string }
  /** The one thing the reader should do: a button, with the address also printed for clients that drop buttons. */
  | { kind: 'action'; label: string; url: string }
  /** Label/value lines, e.g. an order's part, quantity and total. */
  | { kind: 'details'; rows: ReadonlyArray<readonly [label: string, value: string]> }
  /** Small print under the action, e.g. how long a link works. */
  | { kind: 'note'; text: string };

export interface MailDocument {
  subject: string;
  /** The preview line inboxes show beside the subject. */
  preview: string;
  heading: string;
  blocks: readonly MailBlock[];
  /** Why the reader got this mail, in the footer. */
  reason: string;
}

/** The first line of a mail to one person: 'Hello Ana,', or 'Hello,' when they gave no name. */
export function greeting(name: string): string {
  const trimmed = name.trim();
  return trimmed ? `Hello ${trimmed},` : 'Hello,';
}

/** A mail to one person: their greeting, then the document's blocks. */
export function renderPersonalMail(name: string, document: MailDocument): Promise<MailContent> {
  return renderMail({ ...document, blocks: [{ kind: 'paragraph', text: greeting(name) }, ...document.blocks] });
}

export const BRAND = {
  name: 'Redline Parts',
  tagline: 'Vehicle and motorcycle parts and gear',
  /** src/web/styles/app.css --brand and --ink. */
  red: '#d62828',
  redDark: '#a61e1e',
  ink: '#1f2329',
  muted: '#5c636e',
  page: '#f6f7f9',
  card: '#ffffff',
} as const;

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/**
 * Dark mode and phones. Inline styles are the light default (clients that strip <style> still get a readable mail);
 * these rules override them where the client honours media queries. Gmail's web client ignores both and applies its
 * own inversion, which the light palette survives.
 */
const HEAD_CSS = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media (prefers-color-scheme: dark) {
  /* React Email's Body repeats its inline style on an inner cell: both must turn dark. */
  .rl-body, .rl-body > table > tbody > tr > td { background-color: #121417 !important; color: #e6e7e9 !important; }
  .rl-card { background-color: #1d2025 !important; border-color: #2c3037 !important; }
  .rl-text, .rl-heading, .rl-details td { color: #e6e7e9 !important; }
  .rl-muted, .rl-muted a { color: #a9afb8 !important; }
  .rl-logo { color: #f05252 !important; }
  .rl-link { color: #ff8a8a !important; }
}
@media only screen and (max-width: 480px) {
  .rl-card { padding: 24px 16px !important; }
  .rl-heading { font-size: 22px !important; }
}
`;

type ReactEmail = typeof import('@react-email/components');
let reactEmail: Promise<ReactEmail> | undefined;

/**
 * React Email's index loads its Tailwind and Markdown helpers too (about a second on a busy machine), so it is
 * loaded on the first mail rather than at start-up; every later render reuses it.
 */
function loadReactEmail(): Promise<ReactEmail> {
  reactEmail ??= import('@react-email/components');
  return reactEmail;
}

/** Renders a mail document to its HTML and plain-text parts with the shop's one layout. */
export async function renderMail(document: MailDocument): Promise<MailContent> {
  const { subject, text } = mailTextParts(document);
  const rx = await loadReactEmail();
  const html = await rx.render(layout(rx, document));
  return { subject, html, text };
}

/**
 * A document's subject and plain-text part without its HTML: synchronous and cheap (no React), checked as
 * `renderMail` checks it. What the outbox writes at once for a mail whose HTML is rendered when it is delivered.
 */
export function mailTextParts(document: MailDocument): { subject: string; text: string } {
  for (const block of document.blocks) {
    if (block.kind === 'action') assertWebLink(block.url);
  }
  return { subject: oneLine(document.subject), text: plainText(document) };
}

/**
 * The label column of every details block, one fixed width: the blocks of a mail (one per order, then the totals)
 * are separate tables, and only a fixed label width starts their values at the same x.
 */
const DETAILS_LABEL_WIDTH = 132;

/**
 * Long words (an email address, a transaction id, a URL) wrap inside the card instead of widening the mail past a
 * phone's screen. Both properties: `overflow-wrap: anywhere` for current clients, `word-break: break-word` for
 * older WebKit ones.
 */
const WRAP_LONG_WORDS = { overflowWrap: 'anywhere', wordBreak: 'break-word' } as const;

function layout(rx: ReactEmail, doc: MailDocument): ReactNode {
  const text = { color: BRAND.ink, fontSize: '16px', lineHeight: '24px', margin: '0 0 16px', ...WRAP_LONG_WORDS };
  const small = { color: BRAND.muted, fontSize: '13px', lineHeight: '20px', margin: '0 0 8px' };
  return h(
    rx.Html,
    { lang: 'en', dir: 'ltr' },
    h(
      rx.Head,
      null,
      h('meta', { name: 'color-scheme', content: 'light dark' }),
      h('meta', { name: 'supported-color-schemes', content: 'light dark' }),
      h('title', null, oneLine(doc.subject)),
      // React writes <style> text as is (no entity escaping, which would break `>` selectors); it is a constant.
      h('style', null, HEAD_CSS),
    ),
    h(rx.Preview, null, doc.preview),
    h(
      rx.Body,
      { className: 'rl-body', style: { backgroundColor: BRAND.page, color: BRAND.ink, fontFamily: FONT, margin: 0 } },
      h(
        rx.Container,
        { style: { width: '100%', maxWidth: '600px', margin: '0 auto', padding: '24px 12px' } },
        h(
          rx.Section,
          { style: { padding: '0 4px 16px' } },
          h(
            rx.Text,
            {
              className: 'rl-logo',
              style: {
                color: BRAND.red,
                fontSize: '22px',
                fontWeight: 800,
                letterSpacing: '0.5px',
                lineHeight: '28px',
                margin: 0,
              },
            },
            BRAND.name,
          ),
        ),
        h(
          rx.Section,
          {
            className: 'rl-card',
            style: {
              backgroundColor: BRAND.card,
              border: '1px solid #e3e5e8',
              borderTop: `4px solid ${BRAND.red}`,
              borderRadius: '8px',
              padding: '32px 28px',
            },
          },
          h(
            rx.Heading,
            {
              as: 'h1',
              className: 'rl-heading',
              style: { color: BRAND.ink, fontSize: '24px', lineHeight: '32px', fontWeight: 700, margin: '0 0 20px' },
            },
            doc.heading,
          ),
          ...doc.blocks.map((block, index) => renderBlock(rx, block, index, text, small)),
        ),
        h(
          rx.Section,
          { style: { padding: '16px 4px 0' } },
          h(rx.Text, { className: 'rl-muted', style: small }, doc.reason),
          h(rx.Text, { className: 'rl-muted', style: small }, `${BRAND.name} · ${BRAND.tagline}`),
        ),
      ),
    ),
  );
}

function renderBlock(
  rx: ReactEmail,
  block: MailBlock,
  key: number,
  text: Record<string, string | number>,
  small: Record<string, string | number>,
): ReactNode {
  switch (block.kind) {
    case 'paragraph':
      return h(rx.Text, { key, className: 'rl-text', style: text }, block.text);
    case 'note':
      return h(rx.Text, { key, className: 'rl-muted', style: small }, block.text);
    case 'action':
      return h(
        rx.Section,
        { key, style: { margin: '8px 0 24px' } },
        h(
          rx.Button,
          {
            href: block.url,
            style: {
              backgroundColor: BRAND.red,
              borderRadius: '6px',
              color: '#ffffff',
              display: 'inline-block',
              fontSize: '16px',
              fontWeight: 600,
              lineHeight: '24px',
              padding: '12px 24px',
              textDecoration: 'none',
            },
          },
          block.label,
        ),
        h(
          rx.Text,
          { className: 'rl-muted', style: { ...small, margin: '16px 0 0', wordBreak: 'break-all' } },
          'If the button does not work, copy this address into your browser: ',
          h(
            rx.Link,
            { href: block.url, className: 'rl-link', style: { color: BRAND.redDark, textDecoration: 'underline' } },
            block.url,
          ),
        ),
      );
    case 'details':
      return h(
        'table',
        {
          key,
          className: 'rl-details',
          role: 'presentation',
          width: '100%',
          cellPadding: 0,
          cellSpacing: 0,
          // Fixed layout: the columns keep their widths whatever a value's length, and a long value wraps.
          style: { borderCollapse: 'collapse', tableLayout: 'fixed', width: '100%', margin: '0 0 16px' },
        },
        h(
          'tbody',
          null,
          block.rows.map(([label, value], row) =>
            h(
              'tr',
              { key: row },
              h(
                'td',
                {
                  width: DETAILS_LABEL_WIDTH,
                  style: {
                    ...text,
                    color: BRAND.muted,
                    width: `${DETAILS_LABEL_WIDTH}px`,
                    boxSizing: 'border-box',
                    padding: '4px 12px 4px 0',
                    verticalAlign: 'top',
                  },
                },
                label,
              ),
              h('td', { style: { ...text, padding: '4px 0', fontWeight: 600, verticalAlign: 'top' } }, value),
            ),
          ),
        ),
      );
  }
}

/** The plain-text part, written from the same blocks (not scraped from the HTML), so it reads like a letter. */
function plainText(doc: MailDocument): string {
  const parts: string[] = [BRAND.name, '', doc.heading, ''];
  for (const block of doc.blocks) {
    switch (block.kind) {
      case 'paragraph':
      case 'note':
        parts.push(block.text, '');
        break;
      case 'action':
        parts.push(`${block.label}: ${block.url}`, '');
        break;
      case 'details':
        for (const [label, value] of block.rows) parts.push(`${label}: ${value}`);
        parts.push('');
        break;
    }
  }
  parts.push('--', doc.reason, `${BRAND.name} · ${BRAND.tagline}`);
  return `${parts.join('\n')}\n`;
}

/** Only web links go into a button: a `javascript:` or `data:` URL from a bad caller must never reach an inbox. */
function assertWebLink(url: string): void {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new Error('A mail action must link to an http(s) address');
  }
}

/** Subjects are one header line: newlines from user text would otherwise fold into nonsense. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
