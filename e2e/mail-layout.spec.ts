import { renderMail } from '../src/server/modules/mail/mail-layout.ts';
import {
  adminNewPaidOrderMail,
  checkoutPlacedMail,
  type MailOrder,
  orderLinks,
  paymentReceiptMail,
} from '../src/server/modules/mail/order-mails.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * The order mails as a phone's mail app shows them: the HTML the shop sends, in Chromium at 375 px. Long addresses
 * and ids (no spaces to break at) must wrap inside the card, and the label/value lines of every order block must
 * start their values at one x, so the blocks read as one table.
 */

const longEmail = 'alexandra.konstantinopoulou-smythe.orders@motorcycle-parts-distribution.example.com';
const longTransactionId = 'pi_3QfZx8LkdIa0w9Z21Kq8vY7M_secret_OrnK0aTqnVwYbF2sDhZcXe9Lm';
const links = orderLinks('https://shop.example.com');

const order = (id: string, partName: string, quantity: number, unitPriceCents: number): MailOrder => ({
  id,
  partName,
  quantity,
  unitPriceCents,
  totalCents: quantity * unitPriceCents,
  buyerName: '',
  buyerEmail: longEmail,
  address: 'Flat 12, Throttle House, 221 Kickstand Boulevard, Springfield-upon-Avon',
  phone: '+44 7700 900123',
});

const orders = [
  order('3f2b9c1e-8d47-4a6b-9e1f-0c2d3e4f5a6b', 'Sintered Front Brake Pads', 2, 2450),
  order('9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', 'Chain Kit', 1, 13999),
];

/** Each mail, and the longest unbroken text it shows. */
const mails = {
  receipt: {
    render: () => paymentReceiptMail({ transactionId: longTransactionId, orders, buyerName: '' }, links),
    long: longTransactionId,
  },
  'new paid order': {
    render: () => adminNewPaidOrderMail({ transactionId: longTransactionId, orders }, links),
    long: longEmail,
  },
  'please pay': {
    render: () =>
      renderMail(checkoutPlacedMail({ orders, buyerName: '', payUrl: links.payAll(orders.map((o) => o.id)) }, 48)),
    long: links.payAll(orders.map((o) => o.id)),
  },
};

test.describe('order mails on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  for (const [name, { render, long }] of Object.entries(mails)) {
    test(`the ${name} mail fits the screen with a long email and id, its values in one column`, async ({
      page,
    }, testInfo) => {
      const { html } = await render();
      await page.setContent(html);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expect(page.getByText(long).first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`mail-${name.replace(/ /g, '-')}-375.png`), fullPage: true });

      // Every value cell of every details block, and where it starts.
      const valueLefts = await page.evaluate(() =>
        [...document.querySelectorAll('table.rl-details tr')].map((row) => {
          const cells = row.querySelectorAll('td');
          return Math.round(cells[1]?.getBoundingClientRect().left ?? -1);
        }),
      );
      expect(valueLefts.length).toBeGreaterThan(5);
      expect(new Set(valueLefts)).toEqual(new Set([valueLefts[0]]));
      // Nothing pokes out of the card: every value ends inside it.
      const overflow = await page.evaluate(() => {
        const card = document.querySelector('.rl-card')?.getBoundingClientRect();
        const cells = [...document.querySelectorAll('table.rl-details td')].map((cell) => cell.getBoundingClientRect());
        return card ? cells.filter((cell) => cell.right > card.right + 0.5).length : -1;
      });
      expect(overflow).toBe(0);
    });
  }
});
