import type { Review, ReviewInput } from '../../../shared/schemas/reviews.ts';
import type { Database } from '../../db/client.ts';
import { ReviewRepository, type ReviewRow } from './review-repository.ts';

/** The boundary where the clear column name `rating` becomes the spec's wire name `number`. */
export function toWireReview(row: ReviewRow): Review {
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
  constructor(db: Database) {
    this.#reviews = new ReviewRepository(db);
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
