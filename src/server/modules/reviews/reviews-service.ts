import type { Review, ReviewInput } from '../../../shared/schemas/reviews.ts';
import type { ReviewRepository, ReviewRow } from './review-repository.ts';

/** The boundary where the clear column name `rating` becomes the spec's wire name `number`. */
function toWireReview(row: ReviewRow): Review {
  return {
    _id: row.id,
    name: row.name,
    number: row.rating,
    img: row.img,
    review: row.review,
    createdAt: row.createdAt.toISOString(),
  };
}

export class ReviewsService {
  readonly #reviews: ReviewRepository;
  constructor(reviews: ReviewRepository) {
    this.#reviews = reviews;
  }

  async list(limit?: number): Promise<Review[]> {
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
