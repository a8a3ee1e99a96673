/** A 1–5 rating as stars, read out as "Rated 4 out of 5" (the stars themselves are decoration). */
export function StarRating({ rating }: { rating: number }) {
  const label = `Rated ${rating} out of 5`;
  return (
    <span role="img" aria-label={label} title={label} className="star-rating">
      {[1, 2, 3, 4, 5].map((n) => (
        <svg
          key={n}
          viewBox="0 0 24 24"
          width="18"
          height="18"
          aria-hidden="true"
          focusable="false"
          className={n <= rating ? 'star-on' : 'star-off'}
        >
          <path d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z" />
        </svg>
      ))}
    </span>
  );
}
