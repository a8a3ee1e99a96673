/** The demo catalogue a fresh shop starts with. Every image ships with the app under public/images. */
export interface SeedPart {
  name: string;
  description: string;
  img: string;
  priceCents: number;
  availableQuantity: number;
  minimumOrder: number;
}

export const seedParts: SeedPart[] = [
  {
    name: 'Drilled Brake Disc',
    description:
      'Stainless 320 mm floating disc with cross-drilled pattern for fast heat dissipation. Fits most 600–1000 cc sport bikes.',
    img: '/images/parts/brake-disc.svg',
    priceCents: 26000,
    availableQuantity: 340,
    minimumOrder: 2,
  },
  {
    name: 'Sport Seat',
    description:
      'Gel-core rider seat with anti-slip cover and double stitching. Bolt-on replacement, no cutting needed.',
    img: '/images/parts/sport-seat.svg',
    priceCents: 21000,
    availableQuantity: 120,
    minimumOrder: 1,
  },
  {
    name: 'Riding Boots',
    description: 'Waterproof touring boots with reinforced ankle cups, shin plates and an oil-resistant sole.',
    img: '/images/parts/riding-boots.svg',
    priceCents: 40000,
    availableQuantity: 85,
    minimumOrder: 1,
  },
  {
    name: 'Pressure Meter',
    description: 'Dial tyre-pressure gauge, 0–60 psi, with bleed valve and a braided hose that reaches any valve.',
    img: '/images/parts/pressure-gauge.svg',
    priceCents: 3100,
    availableQuantity: 600,
    minimumOrder: 5,
  },
  {
    name: 'O-Ring Drive Chain',
    description: '520-pitch, 120-link sealed O-ring chain with rivet master link. Rated for up to 750 cc.',
    img: '/images/parts/drive-chain.svg',
    priceCents: 8900,
    availableQuantity: 250,
    minimumOrder: 2,
  },
  {
    name: 'Full-Face Helmet',
    description: 'ECE 22.06 certified composite shell, anti-fog visor insert and removable washable liner.',
    img: '/images/parts/full-face-helmet.svg',
    priceCents: 32500,
    availableQuantity: 60,
    minimumOrder: 1,
  },
  {
    name: 'Riding Gloves',
    description: 'Goatskin summer gloves with knuckle armour, palm sliders and touchscreen fingertips.',
    img: '/images/parts/riding-gloves.svg',
    priceCents: 5400,
    availableQuantity: 300,
    minimumOrder: 2,
  },
  {
    name: 'Clutch Lever',
    description: 'CNC-machined aluminium lever with six-position span adjuster and folding tip that survives a drop.',
    img: '/images/parts/clutch-lever.svg',
    priceCents: 3900,
    availableQuantity: 450,
    minimumOrder: 4,
  },
  {
    name: 'Bar-End Mirror',
    description: 'Round convex bar-end mirror with a wide field of view; fits 22 mm and 25 mm handlebars.',
    img: '/images/parts/bar-end-mirror.svg',
    priceCents: 4500,
    availableQuantity: 220,
    minimumOrder: 2,
  },
  {
    name: 'Oil Filter',
    description:
      'Spin-on oil filter with anti-drain-back valve and 17 mm nut for easy changes. Sold in workshop packs.',
    img: '/images/parts/oil-filter.svg',
    priceCents: 1200,
    availableQuantity: 2000,
    minimumOrder: 10,
  },
  {
    name: 'Iridium Spark Plug',
    description: 'Fine-wire iridium plug for a stronger spark, easier cold starts and up to 30,000 km of life.',
    img: '/images/parts/spark-plug.svg',
    priceCents: 1450,
    availableQuantity: 1500,
    minimumOrder: 10,
  },
  {
    name: 'Off-Road Tyre',
    description: '110/90-19 knobbly rear tyre for soft to intermediate terrain, reinforced sidewall.',
    img: '/images/parts/off-road-tyre.svg',
    priceCents: 11800,
    availableQuantity: 140,
    minimumOrder: 2,
  },
  {
    name: 'Exhaust Silencer',
    description: 'Slip-on stainless silencer with removable dB killer and carbon end cap. Road-legal with the insert.',
    img: '/images/parts/exhaust-silencer.svg',
    priceCents: 38900,
    availableQuantity: 35,
    minimumOrder: 1,
  },
  {
    name: 'LED Headlight',
    description: '7-inch round LED headlight with daytime running ring, E-marked, plug-and-play H4 connector.',
    img: '/images/parts/led-headlight.svg',
    priceCents: 14900,
    availableQuantity: 95,
    minimumOrder: 1,
  },
  {
    name: 'Sintered Brake Pads',
    description: 'Sintered-metal front pads for strong bite in the wet and long life. Axle set for two calipers.',
    img: '/images/parts/brake-pads.svg',
    priceCents: 4200,
    availableQuantity: 700,
    minimumOrder: 4,
  },
  {
    name: 'Chest Protector',
    description: 'Vented motocross roost guard with back plate, adjustable straps and neck-brace compatibility.',
    img: '/images/parts/chest-protector.svg',
    priceCents: 13500,
    availableQuantity: 75,
    minimumOrder: 1,
  },
];

export const seedReviews = [
  {
    name: 'Maya Okafor',
    rating: 5,
    img: '/images/avatars/avatar-1.svg',
    review: 'Ordered brake pads for my workshop on Monday, fitted them on Wednesday. Exactly the spec I asked for.',
  },
  {
    name: 'Daniel Brooks',
    rating: 4,
    img: '/images/avatars/avatar-2.svg',
    review:
      'Good prices on chains and sprockets, and the stock numbers on the site were right. Delivery took a day longer than hoped.',
  },
  {
    name: 'Priya Raman',
    rating: 5,
    img: '/images/avatars/avatar-3.svg',
    review: 'The helmet fits perfectly and the visor is crystal clear. Checkout was quick on my phone.',
  },
  {
    name: 'Tomás Alvarez',
    rating: 5,
    img: '/images/avatars/avatar-4.svg',
    review:
      'I run a small rental fleet and buy filters and plugs in bulk here. Minimum orders are sensible and clearly shown.',
  },
  {
    name: 'Hannah Weiss',
    rating: 4,
    img: '/images/avatars/avatar-5.svg',
    review: 'The chest protector is comfortable on long trail days. Would love more sizes in stock.',
  },
];
