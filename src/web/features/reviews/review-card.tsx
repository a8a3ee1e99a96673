import Card from 'react-bootstrap/Card';
import Placeholder from 'react-bootstrap/Placeholder';
import { isShopImagePath, REVIEW_FALLBACK_IMAGE } from '../../../shared/schemas/review-image.ts';
import type { Review } from '../../../shared/schemas/reviews.ts';
import { StarRating } from './star-rating.tsx';
import './reviews.css';

const FALLBACK_AVATAR = REVIEW_FALLBACK_IMAGE;

/** One client review: photo, name, stars and words. */
export function ReviewCard({ review }: { review: Review }) {
  return (
    <Card className="review-card h-100">
      <Card.Body>
        <div className="d-flex align-items-center gap-3 mb-3">
          <img
            // Only the shop's own pictures: a link to another site would tell that site who reads the page.
            src={isShopImagePath(review.img) ? review.img : FALLBACK_AVATAR}
            alt={review.name}
            width={56}
            height={56}
            loading="lazy"
            className="review-avatar rounded-circle"
            // A link that no longer answers shows a neutral avatar instead of a broken image.
            onError={(event) => {
              const img = event.currentTarget;
              if (!img.src.endsWith(FALLBACK_AVATAR)) img.src = FALLBACK_AVATAR;
            }}
          />
          <div className="min-w-0">
            <h3 className="h6 mb-1 text-break">{review.name}</h3>
            <StarRating rating={review.number} />
          </div>
        </div>
        <blockquote className="mb-0 review-text">
          <p className="mb-0">{review.review}</p>
        </blockquote>
      </Card.Body>
    </Card>
  );
}

export function ReviewCardSkeleton() {
  return (
    <Card className="review-card h-100" aria-hidden="true">
      <Card.Body className="placeholder-glow">
        <div className="d-flex align-items-center gap-3 mb-3">
          <Placeholder className="rounded-circle review-avatar-placeholder" />
          <div className="flex-grow-1">
            <Placeholder xs={8} />
            <Placeholder xs={5} size="sm" />
          </div>
        </div>
        <Placeholder xs={12} size="sm" /> <Placeholder xs={9} size="sm" />
      </Card.Body>
    </Card>
  );
}
