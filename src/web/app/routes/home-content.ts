import { paths } from '../../../shared/paths.ts';

// The home page's fixed content (spec §1, §9): these are marketing texts, not catalogue data.

export const featuredProducts = [
  { name: 'Sport Breake', price: 260, img: '/images/parts/brake-disc.svg' },
  { name: 'Sport Seat', price: 210, img: '/images/parts/sport-seat.svg' },
  { name: 'Sport Shoes', price: 400, img: '/images/parts/riding-boots.svg' },
  { name: 'Pressure Meter', price: 310, img: '/images/parts/pressure-gauge.svg' },
] as const;

export const trustFigures = [
  { figure: '72+', label: 'Countries' },
  { figure: '535+', label: 'Complete Projects' },
  { figure: '277+', label: 'Happy Clients' },
  { figure: '437+', label: 'Feedbacks' },
] as const;

export const featuredImages = [
  { src: '/images/home/featured-1.svg', alt: 'Workshop tools hanging on a pegboard above a workbench' },
  { src: '/images/home/featured-2.svg', alt: 'Sport motorcycle wheel with cast spokes and a brake disc' },
  { src: '/images/home/featured-3.svg', alt: 'Motorcycle rider heading down an open road at sunset' },
] as const;

/** 'I NEED IT' opens the catalogue already searched for protective gear. */
export const safetyGearSearch = paths.partsSearch('protector');
