import { isShopImagePath, REVIEW_FALLBACK_IMAGE } from '../../../shared/schemas/review-image.ts';
import { type Review, type ReviewInput, reviewMessages } from '../../../shared/schemas/reviews.ts';
import { AppError } from '../../errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { ReviewRepository, ReviewRow } from './review-repository.ts';

/** The boundary where the clear column name `rating` becomes the spec's wire name `number`. */
function toWireReview(row: ReviewRow): Review {
  return {
    _id: row.id,
    name: row.name,
    number: row.rating,
    // A review written before pictures had to be the shop's may name another site: never sent on to a browser.
    img: isShopImagePath(row.img) ? row.img : REVIEW_FALLBACK_IMAGE,
    review: row.review,
    createdAt: row.createdAt.toISOString(),
  };
}

export class ReviewsService {
  readonly #reviews: ReviewRepository;
  constructor(reviews: ReviewRepository) {
    this.#reviews = reviews;
  }

  /** Only an account whose owner proved the email may post: throwaway accounts cannot fill the home page. */
  assertMayPost(author: Pick<SessionUser, 'emailVerified'>): void {
    if (!author.emailVerified) throw new AppError(403, 'email_not_verified', reviewMessages.verifyEmailFirst);
  }

  async list(limit: number): Promise<Review[]> {
    return (await this.#reviews.listNewestFirst(limit)).map(toWireReview);
  }

  async add(input: ReviewInput, authorId: string): Promise<Review> {
    const row = await this.#reviews.insert({
      userId: authorId,
      name: input.name,
      rating: input.number,
      img: input.img,
      review: input.review,
    });
    return toWireReview(row);
  }
}
