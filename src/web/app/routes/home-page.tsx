import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { formatUsd } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import { PartCard, PartCardSkeleton, PurchaseLink } from '../../components/part-card.tsx';
import { EmptyState, LoadError, SkeletonGrid } from '../../components/query-state.tsx';
import { latestPartsQueryOptions } from '../../features/catalog/parts-api.ts';
import { shopInfo } from '../../features/content/shop-info.ts';
import { FitBadge } from '../../features/fitment/fit-badge.tsx';
import { VehicleFinder } from '../../features/fitment/vehicle-finder.tsx';
import { ReviewCard, ReviewCardSkeleton } from '../../features/reviews/review-card.tsx';
import { reviewsQueryOptions } from '../../features/reviews/reviews-api.ts';
import { useForgetVanishedVehicle, useGarage } from '../../lib/current-vehicle.tsx';
import { useHydrated } from '../../lib/hydration.ts';
import { mainPicture } from '../../lib/main-picture.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { featuredImages, featuredProducts, safetyGearSearch, trustFigures } from './home-content.ts';
import { HOME_HERO_IMAGE } from './home-hero.ts';
import './home.css';

const ContactDialog = lazy(async () => {
  const module = await import('./contact-dialog.tsx');
  return { default: module.ContactDialog };
});

export function Component() {
  usePageTitle();
  return (
    <>
      <HeroBanner />
      {/* Below the banner on a phone: each its own boundary, hydrated after the first pass in short tasks (ADR 024). */}
      <Suspense fallback={null}>
        <FindYourVehicle />
      </Suspense>
      <Suspense fallback={null}>
        <LatestParts />
      </Suspense>
      <Suspense fallback={null}>
        <SafetyGearPromo />
      </Suspense>
      <Suspense fallback={null}>
        <FeaturedImages />
      </Suspense>
      <Suspense fallback={null}>
        <FeaturedProducts />
      </Suspense>
      <Suspense fallback={null}>
        <TrustSummary />
      </Suspense>
      <Suspense fallback={null}>
        <ClientReviews />
      </Suspense>
      <Suspense fallback={null}>
        <CallToAction />
      </Suspense>
    </>
  );
}

function HeroBanner() {
  return (
    <section className="home-hero text-white" aria-labelledby="hero-title">
      <img src={HOME_HERO_IMAGE} alt="" className="home-hero-art" width={1200} height={500} {...mainPicture} />
      <Container className="home-hero-content py-5">
        <p className="text-uppercase fw-semibold small mb-2 home-hero-kicker">Redline Parts for workshops and riders</p>
        <h1 id="hero-title" className="display-5 fw-bold mb-3">
          Build Your Store, Sell Your Goods and Earn Money
        </h1>
        <p className="lead mb-4 home-hero-lead">
          Stock your shop with genuine vehicle and motorcycle parts at wholesale prices, and grow your business with
          every order.
        </p>
        <Link to={paths.parts} className="btn btn-brand btn-lg">
          Explore More
        </Link>
      </Container>
    </section>
  );
}

/** The vehicle selector, right under the banner; the parts list then shows what fits. */
function FindYourVehicle() {
  const { current } = useGarage();
  return (
    <div className="home-vehicle pt-4">
      <Container>
        <VehicleFinder idPrefix="home-vehicle">
          {current ? (
            <p className="mt-3 mb-0">
              <Link to={paths.parts} className="fw-semibold">
                See the parts that fit your {current.label}
              </Link>
            </p>
          ) : null}
        </VehicleFinder>
      </Container>
    </div>
  );
}

function LatestParts() {
  const garage = useGarage();
  const vehicle = garage.current;
  const parts = useQuery({ ...latestPartsQueryOptions(vehicle?.id), enabled: garage.status !== 'pending' });
  useForgetVanishedVehicle(parts.error);
  return (
    <section className="py-5" aria-labelledby="parts-title">
      <Container>
        <div className="d-flex flex-wrap align-items-end justify-content-between gap-2 mb-4">
          <h2 id="parts-title" className="mb-0">
            Parts
          </h2>
          <Link to={paths.parts} className="btn btn-outline-dark">
            See All
          </Link>
        </div>
        {parts.isError ? (
          <LoadError error={parts.error} onRetry={() => void parts.refetch()} what="the latest parts" />
        ) : parts.isPending ? (
          <SkeletonGrid
            xs={1}
            sm={2}
            lg={3}
            count={3}
            label="Loading the latest parts"
            skeleton={<PartCardSkeleton />}
          />
        ) : parts.data.items.length === 0 ? (
          <EmptyState>No parts in the catalogue yet. Please check back soon.</EmptyState>
        ) : (
          <Row xs={1} sm={2} lg={3} className="g-4">
            {parts.data.items.map((part) => (
              <Col key={part._id}>
                <PartCard
                  part={part}
                  headingLevel={3}
                  // Whether it fits is known only from this vehicle's answer, not from the one kept meanwhile.
                  badge={
                    <FitBadge fit={parts.isPlaceholderData ? undefined : part.fit} vehicleLabel={vehicle?.label} />
                  }
                >
                  <PurchaseLink part={part} />
                </PartCard>
              </Col>
            ))}
          </Row>
        )}
      </Container>
    </section>
  );
}

function SafetyGearPromo() {
  return (
    <section className="home-promo py-5" aria-labelledby="promo-title">
      <Container>
        <Row className="align-items-center g-4">
          <Col md={6}>
            <img
              src="/images/home/dirt-bike-gear.svg"
              alt="Dirt bike rider gear: a motocross helmet with goggles and a chest protector"
              width={800}
              height={600}
              loading="lazy"
              className="img-fluid rounded-3"
            />
          </Col>
          <Col md={6}>
            <p className="text-uppercase fw-semibold small text-brand mb-2">Ride safe off-road</p>
            <h2 id="promo-title">Dirt Bike Safety Gear</h2>
            <p className="mb-4">
              Helmets, goggles, chest protectors, gloves and boots built for motocross and trail riding. Protect every
              ride with certified gear your customers trust.
            </p>
            <Link to={safetyGearSearch} className="btn btn-brand btn-lg">
              I NEED IT
            </Link>
          </Col>
        </Row>
      </Container>
    </section>
  );
}

function FeaturedImages() {
  return (
    <section className="py-5" aria-labelledby="featured-images-title">
      <Container>
        <h2 id="featured-images-title" className="visually-hidden">
          From our workshop
        </h2>
        <Row xs={1} md={3} className="g-3">
          {featuredImages.map((image) => (
            <Col key={image.src}>
              <img
                src={image.src}
                alt={image.alt}
                width={600}
                height={400}
                loading="lazy"
                className="img-fluid rounded-3 home-featured-image"
              />
            </Col>
          ))}
        </Row>
      </Container>
    </section>
  );
}

function FeaturedProducts() {
  return (
    <section className="py-5 bg-white" aria-labelledby="featured-title">
      <Container>
        <h2 id="featured-title" className="mb-4 text-center">
          Featured Products
        </h2>
        <Row xs={1} sm={2} lg={4} className="g-4">
          {featuredProducts.map((product) => (
            <Col key={product.name}>
              <article className="card h-100 text-center featured-product">
                <img
                  src={product.img}
                  alt={product.name}
                  width={400}
                  height={400}
                  loading="lazy"
                  className="card-img-top"
                />
                <div className="card-body">
                  <h3 className="h5 card-title">{product.name}</h3>
                  <p className="fs-5 fw-bold mb-0 part-card-price">{formatUsd(product.price)}</p>
                </div>
              </article>
            </Col>
          ))}
        </Row>
      </Container>
    </section>
  );
}

function TrustSummary() {
  return (
    <section className="home-trust py-5 text-white" aria-labelledby="trust-title">
      <Container>
        <h2 id="trust-title" className="text-center mb-2">
          Millions Of Riders Trust Us
        </h2>
        <p className="text-center mb-4 home-trust-lead">Workshops and stores around the world buy their parts here.</p>
        <Row xs={2} md={4} className="g-4 text-center">
          {trustFigures.map((item) => (
            <Col key={item.label}>
              <p className="display-6 fw-bold mb-0 home-trust-figure">{item.figure}</p>
              <p className="mb-0 text-uppercase small fw-semibold">{item.label}</p>
            </Col>
          ))}
        </Row>
      </Container>
    </section>
  );
}

function ClientReviews() {
  const reviews = useQuery(reviewsQueryOptions(6));
  return (
    <section className="py-5" aria-labelledby="reviews-title">
      <Container>
        <h2 id="reviews-title" className="text-center mb-4">
          Our Client Says
        </h2>
        {reviews.isError ? (
          <LoadError error={reviews.error} onRetry={() => void reviews.refetch()} what="the reviews" />
        ) : reviews.isPending ? (
          <SkeletonGrid xs={1} md={3} count={3} label="Loading the reviews" skeleton={<ReviewCardSkeleton />} />
        ) : reviews.data.length === 0 ? (
          <EmptyState>No reviews yet. Bought from us? Tell others how it went from your dashboard.</EmptyState>
        ) : (
          <Row xs={1} md={2} lg={3} className="g-4">
            {reviews.data.map((review) => (
              <Col key={review._id}>
                <ReviewCard review={review} />
              </Col>
            ))}
          </Row>
        )}
      </Container>
    </section>
  );
}

function CallToAction() {
  const [showContact, setShowContact] = useState(false);
  // Mounted from the first time it is asked for, then shown and hidden, so it fades out as it closes.
  const [contactAsked, setContactAsked] = useState(false);
  // The dialog opens only with the app: the button waits for this part of the page to be hydrated.
  const hydrated = useHydrated();
  const quoteLink = `mailto:${shopInfo.contactEmail}?subject=${encodeURIComponent('Request for quote')}`;
  return (
    <section className="home-cta py-5" aria-labelledby="cta-title">
      <Container className="text-center">
        <h2 id="cta-title">Have Any Questions Or Need A Bulk Order?</h2>
        <p className="mb-4">Tell us what you need: our team answers every request within one business day.</p>
        <div className="d-flex flex-wrap justify-content-center gap-3">
          <a href={quoteLink} className="btn btn-brand btn-lg">
            Request For Quote
          </a>
          <Button
            variant="outline-dark"
            size="lg"
            disabled={!hydrated}
            onClick={() => {
              setContactAsked(true);
              setShowContact(true);
            }}
          >
            Contact Us
          </Button>
        </div>
      </Container>
      {/* Loaded once asked for: the dialog (react-bootstrap's Modal) is no part of the home page's first load. */}
      {contactAsked ? (
        <Suspense fallback={null}>
          <ContactDialog show={showContact} onHide={() => setShowContact(false)} />
        </Suspense>
      ) : null}
    </section>
  );
}
