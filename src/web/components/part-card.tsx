import { createContext, type ReactNode, useContext, useId } from 'react';
import Card from 'react-bootstrap/Card';
import Placeholder from 'react-bootstrap/Placeholder';
import { Link } from 'react-router';
import { formatUsd } from '../../shared/money.ts';
import { paths } from '../../shared/paths.ts';
import type { Part } from '../../shared/schemas/parts.ts';
import { type StockLevel, type StockStatus, stockStatus } from '../../shared/stock-status.ts';
import { mainPicture } from '../lib/main-picture.ts';
import './part-card.css';

type HeadingLevel = 2 | 3 | 4;

interface PartCardProps {
  part: Pick<Part, 'name' | 'img' | 'price' | 'availablequantity' | 'minimunorder' | 'desription'> &
    Partial<Pick<Part, 'brand' | 'mpn'>>;
  /** The heading level of the part's name, so the card fits the page's outline (h2 on a list, h3 under a section). */
  headingLevel?: HeadingLevel;
  /** Actions shown at the bottom of the card: Purchase, Delete, Edit… */
  children?: ReactNode;
  /** The first cards of a list are the page's largest paint: load their images at once, not lazily. */
  priority?: boolean;
  /** Under the name: whether the part fits the shopper's vehicle, given by the page that knows it. */
  badge?: ReactNode;
  /** Instead of the picture: e.g. the purchase screen's gallery of uploaded photos. */
  media?: ReactNode;
}

/** The card's stock status and the id of its text, so a Purchase button inside can say why it is disabled. */
const CardStock = createContext<{ status: StockStatus; id: string } | null>(null);

/** Bootstrap's text-bg-* pairs a readable text colour with each background (dark on the yellow warning). */
const stockBadgeColours: Record<StockLevel, string> = {
  inStock: 'text-bg-success',
  low: 'text-bg-warning',
  out: 'text-bg-danger',
};

/** 'In Stock', 'Only N Left' or 'Out Of Stock', by the one rule in src/shared. */
export function StockBadge({ status, id }: { status: StockStatus; id?: string }) {
  return (
    <span id={id} className={`badge ${stockBadgeColours[status.level]} part-card-stock`}>
      {status.label}
    </span>
  );
}

/** The part's stock as the order rule sees it, from the wire's field names. */
export function partStock(part: Pick<Part, 'availablequantity' | 'minimunorder'>): StockStatus {
  return stockStatus({ availableQuantity: part.availablequantity, minimumOrder: part.minimunorder });
}

/** A card is a column: the whole width on a phone, half on a tablet, a third (at most 400 px) on a desktop. */
const CARD_SIZES = '(min-width: 1200px) 400px, (min-width: 768px) 50vw, 100vw';

/**
 * An uploaded main photo's `img` is its 640 px WebP, or its own width when the original is narrower (a 600 px
 * photo's is 600); whenever that is wider than 320 px its 320 px one exists beside it, so a phone's card can take
 * the smaller file. Links, the demo pictures and photos stored at one width only have no srcset.
 */
function uploadedSrcSet(img: string): string | undefined {
  const match = /^(\/uploads\/parts\/[a-f0-9]+)-(\d+)\.webp$/.exec(img);
  const width = Number(match?.[2]);
  if (!match || !(width > 320 && width <= 640)) return undefined;
  return `${match[1]}-320.webp 320w, ${img} ${width}w`;
}

/** One part as the spec shows it everywhere: image, name, price per unit, stock, minimum order, description. */
export function PartCard({ part, headingLevel = 2, children, priority = false, badge, media }: PartCardProps) {
  const Heading = `h${headingLevel}` as const;
  const stock = { status: partStock(part), id: useId() };
  return (
    <Card className="part-card h-100 shadow-sm">
      {media ?? (
        <div className="part-card-media">
          <Card.Img
            variant="top"
            src={part.img}
            srcSet={uploadedSrcSet(part.img)}
            sizes={uploadedSrcSet(part.img) ? CARD_SIZES : undefined}
            alt={part.name}
            width={400}
            height={400}
            loading={priority ? 'eager' : 'lazy'}
            {...(priority ? mainPicture : { fetchPriority: 'auto' })}
            decoding="async"
          />
        </div>
      )}
      <Card.Body className="d-flex flex-column">
        <Heading className="h5 card-title part-card-name">{part.name}</Heading>
        {part.brand || part.mpn ? (
          <p className="small text-body-secondary mb-1 part-card-numbers">
            {part.brand ? <span>{part.brand.name}</span> : null}
            {part.brand && part.mpn ? ' · ' : null}
            {part.mpn ? <span>Part No. {part.mpn}</span> : null}
          </p>
        ) : null}
        {badge}
        <p className="mb-1">
          <span className="fw-semibold">Price</span> <span className="part-card-price">{formatUsd(part.price)}</span>{' '}
          <span className="text-body-secondary">(Per Unit)</span>
        </p>
        <div className="d-flex flex-wrap align-items-baseline column-gap-2 mb-1">
          <p className="mb-0">Available Quantity: {part.availablequantity} PCS</p>
          <StockBadge status={stock.status} id={stock.id} />
        </div>
        <p className="mb-2">Minimum Order: {part.minimunorder} PCS</p>
        {part.desription ? (
          <p className="part-card-description text-body-secondary small mb-3">{part.desription}</p>
        ) : null}
        {children ? (
          <CardStock.Provider value={stock}>
            <div className="mt-auto d-flex flex-wrap gap-2">{children}</div>
          </CardStock.Provider>
        ) : null}
      </Card.Body>
    </Card>
  );
}

/** The shape of a PartCard while its part loads (Bootstrap's placeholder-glow), so the page does not jump. */
export function PartCardSkeleton() {
  return (
    <Card className="part-card h-100 shadow-sm" aria-hidden="true">
      <div className="part-card-media placeholder-glow">
        <Placeholder className="w-100 h-100" />
      </div>
      <Card.Body>
        <Placeholder as="p" animation="glow" className="mb-2">
          <Placeholder xs={7} size="lg" />
        </Placeholder>
        <Placeholder as="p" animation="glow" className="mb-1">
          <Placeholder xs={5} />
        </Placeholder>
        <Placeholder as="p" animation="glow" className="mb-1">
          <Placeholder xs={8} />
        </Placeholder>
        <Placeholder as="p" animation="glow" className="mb-3">
          <Placeholder xs={6} />
        </Placeholder>
        <Placeholder as="p" animation="glow">
          <Placeholder xs={12} size="sm" /> <Placeholder xs={10} size="sm" />
        </Placeholder>
        <Placeholder.Button variant="secondary" xs={4} />
      </Card.Body>
    </Card>
  );
}

/**
 * A card's 'Purchase' button: the part's purchase screen, named after the part for screen readers. Out of stock it
 * is a disabled button described by the card's 'Out Of Stock' (a link cannot be disabled).
 */
export function PurchaseLink({ part }: { part: Pick<Part, '_id' | 'name'> }) {
  const stock = useContext(CardStock);
  if (stock && !stock.status.orderable) {
    return (
      <button
        type="button"
        className="btn btn-brand"
        disabled
        aria-label={`Purchase ${part.name}`}
        aria-describedby={stock.id}
      >
        Purchase
      </button>
    );
  }
  return (
    <Link to={paths.part(part._id)} className="btn btn-brand" aria-label={`Purchase ${part.name}`}>
      Purchase
    </Link>
  );
}
