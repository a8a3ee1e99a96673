import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Placeholder from 'react-bootstrap/Placeholder';
import { Link } from 'react-router';
import { formatUsd } from '../../shared/money.ts';
import type { Part } from '../../shared/schemas/parts.ts';
import { paths } from '../lib/paths.ts';
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
  /** Under the name: whether the part fits the shopper's vehicle (issue 13), given by the page that knows it. */
  badge?: ReactNode;
}

/** One part as the spec shows it everywhere: image, name, price per unit, stock, minimum order, description. */
export function PartCard({ part, headingLevel = 2, children, priority = false, badge }: PartCardProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <Card className="part-card h-100 shadow-sm">
      <div className="part-card-media">
        <Card.Img
          variant="top"
          src={part.img}
          alt={part.name}
          width={400}
          height={400}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
        />
      </div>
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
        <p className="mb-1">Available Quantity: {part.availablequantity} PCS</p>
        <p className="mb-2">Minimum Order: {part.minimunorder} PCS</p>
        {part.desription ? (
          <p className="part-card-description text-body-secondary small mb-3">{part.desription}</p>
        ) : null}
        {children ? <div className="mt-auto d-flex flex-wrap gap-2">{children}</div> : null}
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

/** A card's 'Purchase' button: the part's purchase screen, named after the part for screen readers. */
export function PurchaseLink({ part }: { part: Pick<Part, '_id' | 'name'> }) {
  return (
    <Link to={paths.part(part._id)} className="btn btn-brand" aria-label={`Purchase ${part.name}`}>
      Purchase
    </Link>
  );
}
