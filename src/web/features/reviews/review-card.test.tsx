import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { REVIEW_FALLBACK_IMAGE } from '../../../shared/schemas/review-image.ts';
import type { Review } from '../../../shared/schemas/reviews.ts';
import { ReviewCard } from './review-card.tsx';

const review = (img: string): Review => ({
  _id: '7d0c8a4e-0000-4000-8000-000000000001',
  name: 'Maya',
  number: 4,
  img,
  review: 'Fits well.',
  createdAt: new Date(0).toISOString(),
});
const srcOf = (img: string) =>
  /<img[^>]* src="([^"]*)"/.exec(renderToStaticMarkup(<ReviewCard review={review(img)} />))?.[1];

describe('ReviewCard', () => {
  it('shows a picture the shop serves', () => {
    expect(srcOf('/images/avatars/avatar-2.svg')).toBe('/images/avatars/avatar-2.svg');
    expect(srcOf('/uploads/parts/0123456789abcdef-640.webp')).toBe('/uploads/parts/0123456789abcdef-640.webp');
  });

  it.each([
    'https://tracker.example/pixel.gif',
    'http://203.0.113.9/a.png',
    '//tracker.example/a.png',
    '/\\tracker.example/a.png',
  ])('never asks another site for a picture (%s): the neutral avatar instead', (img) => {
    expect(srcOf(img)).toBe(REVIEW_FALLBACK_IMAGE);
  });
});
