import type { APIRequestContext } from '@playwright/test';
import { signInAdminViaApi, signUpViaApi, useToken } from './support/accounts.ts';
import { expect, expectAccessible, httpErrorMessage, test } from './support/fixtures.ts';
import { addPartViaApi } from './support/parts.ts';
import { payViaApi } from './support/payments.ts';

const nextYear = String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0');

/** A part of this test's own and one order for it, through the real API. */
async function orderOfOwnPart(request: APIRequestContext, token: string, price = 24.5, quantity = 2) {
  const admin = await signInAdminViaApi(request);
  const { _id: partId, name } = await addPartViaApi(request, admin.token, {
    name: `Exhaust ${Math.random().toString(36).slice(2, 8)}`,
    price,
    availablequantity: 30,
  });
  const order = await request.post('/api/myorder', {
    headers: { authorization: `Bearer ${token}` },
    // An order is paid only with a shipping address (without one, the payment page asks for it first).
    data: { partId, quantity, address: '1 Test Track', phone: '555-0100' },
  });
  if (!order.ok()) throw new Error(`ordering failed: ${order.status()} ${await order.text()}`);
  const { _id: orderId } = (await order.json()) as { _id: string };
  return { orderId, name };
}

test('a customer pays with 4242 4242 4242 4242 and My Order shows it paid', async ({ page, request }) => {
  const customer = await signUpViaApi(request, 'Paula Payer');
  const { orderId, name } = await orderOfOwnPart(request, customer.token, 24.5, 2);
  await useToken(page, customer.token);
  await page.goto('/dashboard/myorder');
  await page.getByRole('link', { name: `Pay for ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payment/${orderId}$`));

  await expect(page.getByText('Hello, Paula Payer')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Please Pay for ${name}` })).toBeVisible();
  await expect(page.getByText('Please Pay: $49.00')).toBeVisible();
  await expect(page.getByText('Test mode:')).toBeVisible();
  await expect(page.getByText('4242 4242 4242 4242', { exact: true })).toBeVisible();
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect(pay).toBeEnabled();
  await expectAccessible(page);

  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill(`12${nextYear}`);
  await page.getByLabel('CVC').fill('123');
  await pay.click();
  await expect(page.getByText('Your Payment Is Completed!')).toBeVisible();
  // The heading and the amount say it is paid now, no longer what to pay.
  await expect(page.getByRole('heading', { name: `Paid for ${name}` })).toBeVisible();
  await expect(page.getByText('Paid: $49.00')).toBeVisible();
  await expect(page.getByText(/Please Pay/)).toHaveCount(0);
  const idText = await page.getByText(/Your Transaction Id:/).textContent();
  const transactionId = /pi_[A-Za-z0-9]+/.exec(idText ?? '')?.[0];
  expect(transactionId).toBeTruthy();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Back to My Order' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByText('Paid', { exact: true })).toBeVisible();
  await expect(row).toContainText(transactionId ?? 'missing');
  await expect(row.getByRole('button', { name: `Delete order of ${name}` })).toBeDisabled();
  await expect(row.getByRole('link', { name: /Pay for/ })).toHaveCount(0);

  // Coming back to the payment page offers no second payment.
  await page.goto(`/dashboard/payment/${orderId}`);
  await expect(page.getByText('This order is already paid.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toHaveCount(0);
});

/** One part of this test's own with `count` orders of 1 PCS for it (one admin sign-in for them all). */
async function ordersOfOwnPart(request: APIRequestContext, token: string, count: number, price = 12) {
  const admin = await signInAdminViaApi(request);
  const { _id: partId } = await addPartViaApi(request, admin.token, {
    name: `Lever ${Math.random().toString(36).slice(2, 8)}`,
    price,
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const order = await request.post('/api/myorder', {
      headers: { authorization: `Bearer ${token}` },
      data: { partId, quantity: 1, address: '1 Test Track', phone: '555-0100' },
    });
    if (!order.ok()) throw new Error(`ordering failed: ${order.status()} ${await order.text()}`);
    ids.push(((await order.json()) as { _id: string })._id);
  }
  return ids;
}

test('each payment asks for one payment intent and none after it, however the orders refresh', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const customer = await signUpViaApi(request, 'Ivy Intent');
  await useToken(page, customer.token);
  const intents: string[] = [];
  const refused: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/create-payment-intent')
      intents.push(req.url());
  });
  page.on('response', (res) => {
    if (res.status() === 409) refused.push(`${res.request().method()} ${new URL(res.url()).pathname}`);
  });

  for (let round = 0; round < 3; round++) {
    const ids = await ordersOfOwnPart(request, customer.token, 3);
    // Once the payment is confirmed, the last order's refreshed answer is held until the others' have arrived: the
    // page then sees two of its orders paid and one not, as it did whenever the network answered in that order.
    let confirmed = false;
    let othersAnswered = 0;
    let releaseLast = () => {};
    const othersDone = new Promise<void>((resolve) => {
      releaseLast = resolve;
    });
    const onConfirm = (req: import('@playwright/test').Request) => {
      if (new URL(req.url()).pathname === '/api/payments/confirm') confirmed = true;
    };
    const onOrder = (res: import('@playwright/test').Response) => {
      const path = new URL(res.url()).pathname;
      if (confirmed && ids.slice(0, -1).some((id) => path === `/api/myorder/${id}`)) {
        othersAnswered += 1;
        if (othersAnswered >= ids.length - 1) releaseLast();
      }
    };
    page.on('request', onConfirm);
    page.on('response', onOrder);
    const last = `**/api/myorder/${ids.at(-1)}`;
    await page.route(last, async (route) => {
      if (confirmed) await othersDone;
      await route.continue();
    });

    const before = intents.length;
    await page.goto(`/dashboard/pay?orders=${ids.join(',')}`);
    await expect(page.getByRole('heading', { name: 'Please Pay for 3 Orders' })).toBeVisible();
    await expect(page.getByText('Please Pay: $36.00')).toBeVisible();
    const pay = page.getByRole('button', { name: 'Pay', exact: true });
    await expect(pay).toBeEnabled();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill(`12${nextYear}`);
    await page.getByLabel('CVC').fill('123');
    await pay.click();
    await expect(page.getByText('Your Payment Is Completed!')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Paid for 3 Orders' })).toBeVisible();
    await expect(page.getByText('Paid: $36.00')).toBeVisible();
    await expect(page.getByText(/Please Pay/)).toHaveCount(0);
    // Every refresh the payment started has answered (the held one last) before the intents are counted.
    await othersDone;
    await page.waitForLoadState('networkidle');
    expect(intents.length - before, `intent requests in round ${round + 1}`).toBe(1);
    await page.unroute(last);
    page.off('request', onConfirm);
    page.off('response', onOrder);
  }

  // One order on its own page: one intent too.
  const [single] = await ordersOfOwnPart(request, customer.token, 1);
  const before = intents.length;
  await page.goto(`/dashboard/payment/${single}`);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill(`12${nextYear}`);
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByText('Your Payment Is Completed!')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(intents.length - before, 'intent requests for one order').toBe(1);
  expect(refused).toEqual([]);
});

test('a declined card shows the provider’s message in red and leaves the order unpaid', async ({
  page,
  request,
  allowConsoleMessage,
}) => {
  // The declined card's confirmation answers 402.
  allowConsoleMessage(httpErrorMessage(402, '/api/payments/test-gateway/confirm'));
  const customer = await signUpViaApi(request);
  const { orderId } = await orderOfOwnPart(request, customer.token);
  await useToken(page, customer.token);
  await page.goto(`/dashboard/payment/${orderId}`);

  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry (MM / YY)').fill(`11${nextYear}`);
  await page.getByLabel('CVC').fill('321');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  const message = page.getByRole('alert').filter({ hasText: 'Your card was declined.' });
  await expect(message).toBeVisible();
  await expect(message).toHaveClass(/text-danger/);
  await expect(page.getByText('Your Payment Is Completed!')).toHaveCount(0);
  await expectAccessible(page);

  const order = await request.get(`/api/myorder/${orderId}`, {
    headers: { authorization: `Bearer ${customer.token}` },
  });
  expect(await order.json()).toMatchObject({ paid: false, status: 'unpaid', transactionId: null });

  // Insufficient funds, then a good card, on the same page.
  await page.getByLabel('Card number').fill('4000 0000 0000 9995');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card has insufficient funds.' })).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.getByText('Your Payment Is Completed!')).toBeVisible();
});

test('an admin sees a paid order as pending to shipped and ships it; the customer sees Shipped', async ({
  page,
  request,
}) => {
  const customer = await signUpViaApi(request, 'Shane Shipper');
  const { orderId, name } = await orderOfOwnPart(request, customer.token, 80, 1);
  const unpaid = await orderOfOwnPart(request, customer.token, 15, 3);
  await payViaApi(request, customer.token, orderId);
  const admin = await signInAdminViaApi(request);
  await useToken(page, admin.token);
  await page.goto('/dashboard/manageorder');

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Shane Shipper');
  await expect(row).toContainText(customer.email);
  await expect(row.getByText('pending to shipped')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Delete order/ })).toBeDisabled();
  const unpaidRow = page.getByRole('row').filter({ hasText: unpaid.name });
  await expect(unpaidRow.getByText('Unpaid', { exact: true })).toBeVisible();
  await expect(unpaidRow.getByRole('button', { name: /^Delete order/ })).toBeEnabled();
  await expectAccessible(page);

  // Ship asks for the carrier and tracking number, then for a confirmation.
  await row.getByRole('button', { name: /^Ship / }).click();
  await page.getByRole('dialog').getByLabel('Carrier').fill('DHL');
  await page.getByRole('dialog').getByLabel('Tracking Number').fill('JD014600006281230704');
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm Ship' }).click();
  await expect(row.getByText('Shipped', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Ship / })).toHaveCount(0);

  // The admin deletes the unpaid order after confirming.
  await unpaidRow.getByRole('button', { name: /^Delete order/ }).click();
  await page.getByRole('dialog', { name: 'Confirm Delete' }).getByRole('button', { name: 'Delete' }).click();
  await expect(unpaidRow).toHaveCount(0);

  const mine = await request.get('/api/myorder', { headers: { authorization: `Bearer ${customer.token}` } });
  expect(((await mine.json()) as { status: string }[]).map((o) => o.status)).toEqual(['shipped']);
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the payment page fits the screen', async ({ page, request }, testInfo) => {
    const customer = await signUpViaApi(request);
    const { orderId } = await orderOfOwnPart(request, customer.token);
    await useToken(page, customer.token);
    await page.goto(`/dashboard/payment/${orderId}`);
    await expect(page.getByLabel('Card number')).toBeVisible();
    // The card step is ready (Pay enabled, its colours settled) before axe reads the page.
    await expect(page.getByRole('button', { name: 'Pay', exact: true })).toBeEnabled();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: testInfo.outputPath('payments-375.png'), fullPage: true });
  });

  test('Manage Orders shows each order as a card with its Ship and Delete buttons', async ({
    page,
    request,
  }, testInfo) => {
    const customer = await signUpViaApi(request, 'Pocket Buyer');
    const { orderId, name } = await orderOfOwnPart(request, customer.token, 30, 1);
    await payViaApi(request, customer.token, orderId);
    const admin = await signInAdminViaApi(request);
    await useToken(page, admin.token);
    await page.goto('/dashboard/manageorder');
    const row = page.getByRole('row').filter({ hasText: name });
    // The filter bar sits above the cards; the card's Ship is reached by scrolling down, never sideways.
    await row.getByRole('button', { name: /^Ship / }).scrollIntoViewIfNeeded();
    await expect(row.getByRole('button', { name: /^Ship / })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: testInfo.outputPath('payments-manage-375.png'), fullPage: false });
    await expectAccessible(page);
  });
});
