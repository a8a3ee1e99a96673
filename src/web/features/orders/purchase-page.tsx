import { zodResolver } from '@hookform/resolvers/zod';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { z } from 'zod';
import { toastMessages } from '../../../shared/messages.ts';
import { centsToDollars, dollarsToCents, formatUsd } from '../../../shared/money.ts';
import { checkOrderQuantity } from '../../../shared/order-rules.ts';
import { paths } from '../../../shared/paths.ts';
import type { Order } from '../../../shared/schemas/orders.ts';
import type { Part } from '../../../shared/schemas/parts.ts';
import { phoneNumberSchema } from '../../../shared/schemas/phone.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormField } from '../../components/form-field.tsx';
import { PartCard, PartCardSkeleton, partStock } from '../../components/part-card.tsx';
import { LoadError } from '../../components/query-state.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { ApiError, errorMessage, SubmitKeys } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { useCart } from '../../lib/cart-context.tsx';
import { useHydrated } from '../../lib/hydration.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import './purchase-page.css';
import { clearPurchaseDraft, readPurchaseDraft, savePurchaseDraft } from './purchase-draft.ts';
import { usePlaceOrder } from './use-order-mutations.ts';

/** The form's own rules: address and phone as the server checks them; the quantity only as a whole number here. */
const purchaseFormSchema = z.object({
  address: z.string().trim().max(300, 'Address Must Be 300 Characters Or Fewer'),
  phone: phoneNumberSchema,
  quantity: z.number({ error: 'Enter A Whole Number Of PCS' }).int('Enter A Whole Number Of PCS'),
});
type PurchaseForm = z.infer<typeof purchaseFormSchema>;

/** What waits on the question about a part that does not fit: an order, or putting it in the cart. */
interface FitQuestion {
  action: 'order' | 'cart';
  values: PurchaseForm;
}

/** A part that does not fit the shopper's current vehicle: what to say, and which vehicles it fits instead. */
export interface FitNotice {
  /** 'Does not fit your 2019 Yamaha YZ250F' */
  text: string;
  /** 'It fits: Yamaha YZ450F 2018–2020; …', or null when it lists no vehicles. */
  fitsInstead: string | null;
}

interface PurchasePageProps {
  part: UseQueryResult<Part>;
  /** Under the part's name: whether it fits the current vehicle. */
  badge?: ReactNode;
  /** Set when the part does not fit the current vehicle: said beside the card, and asked once before ordering. */
  fitNotice?: FitNotice | null;
  /**
   * Whether the part fits the current vehicle is still being asked (the page shows the part meanwhile): an order
   * placed now waits for the answer, so a part that does not fit is still asked about first.
   */
  fitPending?: boolean;
  /** The part's full fitment, below the order form. */
  fitment?: ReactNode;
  /** The part's uploaded photos, shown in place of its picture. */
  gallery?: ReactNode;
}

/**
 * Spec §2 Purchase screen: the part, the order form and its total. The part is the catalogue's and what fits is the
 * fitment feature's: the app's route loads them and hands them over.
 */
export function PurchasePage({
  part,
  badge,
  fitNotice = null,
  fitPending = false,
  fitment,
  gallery,
}: PurchasePageProps) {
  usePageTitle(part.data ? `Purchase ${part.data.name}` : 'Purchase');

  if (part.isPending) {
    return (
      <Container className="py-4">
        <h1 className="visually-hidden">Loading the part…</h1>
        <Row className="g-4">
          <Col md={5} lg={4}>
            <div>
              <PartCardSkeleton />
            </div>
          </Col>
        </Row>
      </Container>
    );
  }
  if (part.isError) {
    if (part.error instanceof ApiError && part.error.status === 404) {
      return (
        <Container className="py-5 text-center">
          <h1 className="h3">This part does not exist</h1>
          <p className="text-body-secondary">It may have been removed from the catalogue.</p>
          <Link to={paths.parts} className="btn btn-brand">
            See All Parts
          </Link>
        </Container>
      );
    }
    return (
      <Container className="py-4">
        <h1 className="h3">Purchase</h1>
        <LoadError error={part.error} onRetry={() => void part.refetch()} what="this part" />
      </Container>
    );
  }
  return (
    <PurchaseScreen
      part={part.data}
      badge={badge}
      fitNotice={fitNotice}
      fitPending={fitPending}
      fitment={fitment}
      gallery={gallery}
    />
  );
}

function PurchaseScreen({
  part,
  badge,
  fitNotice,
  fitPending,
  fitment,
  gallery,
}: { part: Part } & Pick<PurchasePageProps, 'badge' | 'fitNotice' | 'fitPending' | 'fitment' | 'gallery'>) {
  const { user, status: authStatus } = useAuth();
  const cart = useCart();
  const navigate = useNavigate();
  const location = useLocation();
  const [placed, setPlaced] = useState<Order | null>(null);
  // A visitor sent to sign in by Place Order comes back to what they chose.
  const [draft] = useState(() => readPurchaseDraft(part._id));
  useEffect(() => {
    if (authStatus === 'signed-in') clearPurchaseDraft(part._id);
  }, [authStatus, part._id]);
  const form = useForm<PurchaseForm>({
    resolver: zodResolver(purchaseFormSchema),
    defaultValues: draft ?? { address: '', phone: '', quantity: part.minimunorder },
  });
  const [adding, setAdding] = useState(false);
  const typed = form.watch('quantity');
  const orderablePart = {
    minimumOrder: part.minimunorder,
    availableQuantity: part.availablequantity,
    priceCents: dollarsToCents(part.price),
  };
  // The total only for a quantity the order rule accepts: a price for an order that cannot be placed misleads.
  const quantityCheck = checkOrderQuantity(orderablePart, Number.isFinite(typed) ? typed : Number.NaN);
  const stock = partStock(part);
  const stockReasonId = useId();

  const order = usePlaceOrder();
  // One order per submit. The ref closes the gap before the disabled button renders (two Enters
  // land before React re-renders), and the key per form state makes a repeat of the same form the same order.
  const inFlight = useRef(false);
  const [submitKeys] = useState(() => new SubmitKeys());
  const lastPlacedId = useRef<string | null>(null);
  // Ordering a part that does not fit the current vehicle, or putting it in the cart, is asked about once (for that
  // vehicle), then trusted.
  const [fitConfirmed, setFitConfirmed] = useState<string | null>(null);
  const [askFit, setAskFit] = useState<FitQuestion | null>(null);
  const mustAsk = fitNotice !== null && fitNotice !== undefined && fitConfirmed !== fitNotice.text;
  // An order or an Add To Cart made before the fit for the current vehicle is known, held until it is.
  const [heldForFit, setHeldForFit] = useState<FitQuestion | null>(null);

  /** Into the cart (a visitor's stays in this browser), with the quantity the order rule accepts. */
  const addToCart = form.handleSubmit((values) => {
    const check = checkOrderQuantity(orderablePart, values.quantity);
    if (!check.ok) {
      toast.error(check.message);
      return;
    }
    if (adding) return;
    if (fitPending) {
      setHeldForFit({ action: 'cart', values });
      return;
    }
    goOrAsk({ action: 'cart', values });
  });

  const putInCart = async (values: PurchaseForm) => {
    if (adding) return;
    setAdding(true);
    try {
      await cart.set(
        {
          partId: part._id,
          name: part.name,
          img: part.img,
          price: part.price,
          minimumOrder: part.minimunorder,
          availableQuantity: part.availablequantity,
        },
        values.quantity,
      );
      toast.success(`${values.quantity} PCS of ${part.name} Added To Cart`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setAdding(false);
    }
  };

  const place = (values: PurchaseForm) => {
    if (inFlight.current) return;
    inFlight.current = true;
    const input = { partId: part._id, quantity: values.quantity, address: values.address, phone: values.phone };
    order.mutate(
      { ...input, idempotencyKey: submitKeys.keyFor(input) },
      {
        onSuccess: (created) => {
          // The form keeps what was ordered: sending it again unchanged is the same order, which the server answers
          // from its record. Said once; change anything for another order.
          if (lastPlacedId.current === created._id) {
            toast.info('This order is already placed');
            return;
          }
          lastPlacedId.current = created._id;
          setPlaced(created);
          toast.success(toastMessages.orderPlaced);
        },
        onError: (error) => toast.error(errorMessage(error)),
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  const onSubmit = form.handleSubmit((values) => {
    // The server's own rule, so a person hears about it without a round trip.
    const check = checkOrderQuantity(orderablePart, values.quantity);
    if (!check.ok) {
      toast.error(check.message);
      return;
    }
    if (authStatus === 'signed-out') {
      // Visitors browse; ordering needs an account. Back here after signing in, with the form as it was.
      savePurchaseDraft(part._id, values);
      const state: { from: typeof location } = { from: location };
      navigate(paths.login, { state });
      return;
    }
    if (fitPending) {
      setHeldForFit({ action: 'order', values });
      return;
    }
    goOrAsk({ action: 'order', values });
  });

  const go = ({ action, values }: FitQuestion) => {
    if (action === 'order') place(values);
    else void putInCart(values);
  };
  const goOrAsk = (question: FitQuestion) => {
    if (mustAsk) setAskFit(question);
    else go(question);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: goOrAsk is made anew each render; the held action goes once, when the fit is known
  useEffect(() => {
    if (fitPending || heldForFit === null) return;
    setHeldForFit(null);
    goOrAsk(heldForFit);
  }, [fitPending, heldForFit]);

  return (
    <Container className="py-4">
      <h1 className="h3 mb-4">Purchase {part.name}</h1>
      {/* Left the part and its total, right the order form (purchase-page.css); on a phone the total follows the
          form as a bar kept at the bottom of the screen, so it stays in sight while the quantity is typed. */}
      <div className="purchase-layout">
        <div className="purchase-part">
          {/* The card fills its parent's height in a grid; here it sits at its own height.
              Its image is the page's largest paint: fetched at once, not lazily (LCP). */}
          <div>
            <PartCard part={part} badge={badge} media={gallery} priority />
          </div>
          {fitNotice ? (
            <Alert variant="warning" className="mt-3 mb-0">
              <p className="fw-semibold mb-1">{fitNotice.text}.</p>
              <p className="mb-0">{fitNotice.fitsInstead ?? 'No vehicles are listed for it yet.'}</p>
            </Alert>
          ) : null}
        </div>
        <p className="purchase-total fs-5 mb-0" aria-live="polite">
          Total Price:{' '}
          {quantityCheck.ok ? (
            <strong className="text-brand">{formatUsd(centsToDollars(quantityCheck.totalCents))}</strong>
          ) : (
            <>
              <span aria-hidden="true">—</span>
              <span className="visually-hidden">none for this quantity</span>
            </>
          )}
        </p>
        <div className="purchase-order">
          {/* Under the part on a phone: a boundary of its own, hydrated after the first pass. */}
          <Suspense fallback={null}>
            <div className="bg-white border rounded p-3 p-md-4">
              <h2 className="h5 mb-3">Your Order</h2>
              {placed ? (
                <Alert variant="success" role="status">
                  <Alert.Heading as="p" className="h6 mb-1">
                    {toastMessages.orderPlaced}
                  </Alert.Heading>
                  {placed.quantity} PCS of {placed.name}, {formatUsd(placed.total)}.{' '}
                  <Link to={paths.dashboard.myOrder} className="alert-link">
                    Go to My Order to pay
                  </Link>
                </Alert>
              ) : null}
              <Form noValidate onSubmit={onSubmit}>
                <UntilHydrated>
                  <Row>
                    <Col sm={6}>
                      <Form.Group className="mb-3" controlId="purchase-name">
                        <Form.Label>Name</Form.Label>
                        <Form.Control value={user?.displayName ?? ''} disabled readOnly autoComplete="name" />
                      </Form.Group>
                    </Col>
                    <Col sm={6}>
                      <Form.Group className="mb-3" controlId="purchase-email">
                        <Form.Label>Email</Form.Label>
                        <Form.Control type="email" value={user?.email ?? ''} disabled readOnly autoComplete="email" />
                      </Form.Group>
                    </Col>
                  </Row>
                  <FormField
                    form={form}
                    name="address"
                    label="Address"
                    autoComplete="street-address"
                    placeholder="Address"
                  />
                  <FormField
                    form={form}
                    name="phone"
                    label="Phone Number"
                    type="tel"
                    autoComplete="tel"
                    inputMode="tel"
                    placeholder="Phone Number"
                  />
                  <FormField
                    form={form}
                    name="quantity"
                    label="Order Quantity (PCS)"
                    type="number"
                    inputMode="numeric"
                    min={part.minimunorder}
                    max={part.availablequantity}
                    step={1}
                    asNumber
                    placeholder="Add Quantity"
                    hint={`Minimum order ${part.minimunorder} PCS, ${part.availablequantity} PCS available.`}
                  />
                  {stock.orderable ? null : (
                    <p id={stockReasonId} className="text-danger fw-semibold mb-2">
                      {stock.label}:{' '}
                      {part.availablequantity > 0
                        ? `${part.availablequantity} PCS left, fewer than the minimum order of ${part.minimunorder} PCS.`
                        : 'this part cannot be ordered right now.'}
                    </p>
                  )}
                  <div className="d-flex flex-wrap gap-2">
                    <SubmitButton
                      busy={order.isPending || heldForFit?.action === 'order'}
                      busyLabel="Placing the order"
                      className="btn-brand"
                      disabled={!stock.orderable}
                      describedBy={stock.orderable ? undefined : stockReasonId}
                    >
                      Place Order
                    </SubmitButton>
                    <Button
                      type="button"
                      variant="outline-dark"
                      disabled={!stock.orderable || adding || heldForFit?.action === 'cart'}
                      aria-describedby={stock.orderable ? undefined : stockReasonId}
                      onClick={() => void addToCart()}
                    >
                      Add To Cart
                    </Button>
                    {cart.count > 0 ? (
                      <Link to={paths.cart} className="btn btn-link">
                        View Cart ({cart.count})
                      </Link>
                    ) : null}
                  </div>
                </UntilHydrated>
              </Form>
            </div>
          </Suspense>
        </div>
      </div>
      {fitment ? (
        <Suspense fallback={null}>
          <div className="mt-4">{fitment}</div>
        </Suspense>
      ) : null}
      <ConfirmDialog
        show={askFit !== null}
        title={`${fitNotice ? `${fitNotice.text}. ` : ''}${askFit?.action === 'cart' ? 'Add it to the cart anyway?' : 'Order it anyway?'}`}
        body={fitNotice?.fitsInstead ?? undefined}
        confirmLabel={askFit?.action === 'cart' ? 'Add Anyway' : 'Order Anyway'}
        onCancel={() => setAskFit(null)}
        onConfirm={() => {
          const question = askFit;
          setAskFit(null);
          if (!question || !fitNotice) return;
          setFitConfirmed(fitNotice.text);
          go(question);
        }}
      />
    </Container>
  );
}

/**
 * The order's fields and buttons work only with the app (an order is sent by it, signed in): disabled until this part
 * of the page is hydrated, so nothing is typed or pressed for nothing before then. Inside the part's boundary, so the
 * switch does not make React hydrate that part ahead of its turn.
 */
function UntilHydrated({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return <fieldset disabled={!hydrated}>{children}</fieldset>;
}
