/** The demo catalogue a fresh shop starts with. Every image ships with the app under public/images. */
export interface SeedPart {
  name: string;
  description: string;
  img: string;
  priceCents: number;
  availableQuantity: number;
  minimumOrder: number;
}

/** What a demo part is and fits, by part name; the seed writes it next to the part. */
export interface SeedPartDetails {
  brand: string;
  mpn: string;
  oemNumbers?: string[];
  /** A category slug of `seedCategories`. */
  category: string;
  universal?: boolean;
  fitment?: { make: string; model: string; from: number; to: number; variant?: string }[];
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

interface SeedModel {
  model: string;
  type: 'motorcycle' | 'car' | 'atv' | 'scooter';
  from: number;
  to: number;
  /** Trims or engines besides the base model, each for the same years. */
  variants?: string[];
}

/** Demo makes and models: one vehicle per model year (and per variant), 2005–2025. */
export const seedVehicles: Record<string, SeedModel[]> = {
  Honda: [
    { model: 'CRF250R', type: 'motorcycle', from: 2010, to: 2025 },
    { model: 'CRF450R', type: 'motorcycle', from: 2009, to: 2025 },
    { model: 'CBR600RR', type: 'motorcycle', from: 2007, to: 2024 },
    { model: 'CB500F', type: 'motorcycle', from: 2013, to: 2025 },
    { model: 'CRF1100L Africa Twin', type: 'motorcycle', from: 2020, to: 2025, variants: ['Adventure Sports'] },
    { model: 'TRX420 Rancher', type: 'atv', from: 2014, to: 2025 },
    { model: 'PCX125', type: 'scooter', from: 2010, to: 2025 },
    { model: 'Civic', type: 'car', from: 2016, to: 2021, variants: ['Type R'] },
  ],
  Yamaha: [
    { model: 'YZ250F', type: 'motorcycle', from: 2014, to: 2025 },
    { model: 'YZ450F', type: 'motorcycle', from: 2014, to: 2025 },
    { model: 'MT-07', type: 'motorcycle', from: 2014, to: 2025 },
    { model: 'YZF-R1', type: 'motorcycle', from: 2015, to: 2025, variants: ['M'] },
    { model: 'Ténéré 700', type: 'motorcycle', from: 2019, to: 2025 },
    { model: 'YFZ450R', type: 'atv', from: 2009, to: 2024 },
    { model: 'NMAX 125', type: 'scooter', from: 2015, to: 2025 },
  ],
  Kawasaki: [
    { model: 'KX250', type: 'motorcycle', from: 2017, to: 2025 },
    { model: 'Ninja 650', type: 'motorcycle', from: 2017, to: 2025 },
    { model: 'Z900', type: 'motorcycle', from: 2017, to: 2025 },
    { model: 'KLR650', type: 'motorcycle', from: 2008, to: 2018 },
  ],
  Suzuki: [
    { model: 'RM-Z250', type: 'motorcycle', from: 2010, to: 2025 },
    { model: 'GSX-R750', type: 'motorcycle', from: 2011, to: 2023 },
    { model: 'V-Strom 650', type: 'motorcycle', from: 2012, to: 2025, variants: ['XT'] },
    { model: 'DR-Z400S', type: 'motorcycle', from: 2005, to: 2024 },
  ],
  KTM: [
    { model: '250 SX-F', type: 'motorcycle', from: 2013, to: 2025 },
    { model: '450 SX-F', type: 'motorcycle', from: 2013, to: 2025 },
    { model: '390 Duke', type: 'motorcycle', from: 2017, to: 2025 },
    { model: '890 Adventure', type: 'motorcycle', from: 2021, to: 2025, variants: ['R'] },
  ],
  Ducati: [
    { model: 'Panigale V4', type: 'motorcycle', from: 2018, to: 2025, variants: ['S'] },
    { model: 'Monster 821', type: 'motorcycle', from: 2015, to: 2020 },
    { model: 'Scrambler Icon', type: 'motorcycle', from: 2015, to: 2025 },
  ],
  BMW: [
    { model: 'R 1250 GS', type: 'motorcycle', from: 2019, to: 2025, variants: ['Adventure'] },
    { model: 'S 1000 RR', type: 'motorcycle', from: 2010, to: 2025, variants: ['M Package'] },
    { model: 'F 850 GS', type: 'motorcycle', from: 2018, to: 2025 },
  ],
  'Harley-Davidson': [
    { model: 'Sportster Iron 883', type: 'motorcycle', from: 2009, to: 2021 },
    { model: 'Street Glide', type: 'motorcycle', from: 2006, to: 2025, variants: ['Special'] },
    { model: 'Fat Boy', type: 'motorcycle', from: 2005, to: 2025 },
  ],
  Polaris: [{ model: 'Sportsman 570', type: 'atv', from: 2014, to: 2025 }],
  Vespa: [{ model: 'Primavera 150', type: 'scooter', from: 2014, to: 2025 }],
  Toyota: [{ model: 'Corolla', type: 'car', from: 2014, to: 2025 }],
  Volkswagen: [{ model: 'Golf', type: 'car', from: 2013, to: 2025, variants: ['GTI'] }],
};

/**
 * Brand, numbers, category and fitment of each demo part. The 2019 Yamaha YZ250F is fitted by the chain, clutch
 * lever, spark plug and brake pads; the helmet, gloves, boots, chest protector and pressure meter are universal;
 * the rest do not fit it.
 */
export const seedPartDetails: Record<string, SeedPartDetails> = {
  'Drilled Brake Disc': {
    brand: 'Galfer',
    mpn: 'DF-320-SR',
    category: 'brake-discs',
    fitment: [
      { make: 'Honda', model: 'CBR600RR', from: 2007, to: 2024 },
      { make: 'Yamaha', model: 'YZF-R1', from: 2015, to: 2025 },
      { make: 'Kawasaki', model: 'Z900', from: 2017, to: 2025 },
      { make: 'Suzuki', model: 'GSX-R750', from: 2011, to: 2023 },
      { make: 'BMW', model: 'S 1000 RR', from: 2010, to: 2018 },
      { make: 'Ducati', model: 'Monster 821', from: 2015, to: 2020 },
    ],
  },
  'Sport Seat': {
    brand: 'Corbin',
    mpn: 'CB-MT07-GEL',
    category: 'seats',
    fitment: [
      { make: 'Yamaha', model: 'MT-07', from: 2018, to: 2025 },
      { make: 'Kawasaki', model: 'Z900', from: 2017, to: 2025 },
    ],
  },
  'Riding Boots': { brand: 'Alpinestars', mpn: '2040020-10', category: 'boots', universal: true },
  'Pressure Meter': { brand: 'Motion Pro', mpn: '08-0431', category: 'gauges', universal: true },
  'O-Ring Drive Chain': {
    brand: 'KMC',
    mpn: 'KMC-520',
    oemNumbers: ['94568-20120', '40530-MEN-A71'],
    category: 'chains',
    fitment: [
      { make: 'Yamaha', model: 'YZ250F', from: 2014, to: 2025 },
      { make: 'Yamaha', model: 'YZ450F', from: 2014, to: 2025 },
      { make: 'Yamaha', model: 'MT-07', from: 2014, to: 2025 },
      { make: 'Honda', model: 'CRF250R', from: 2010, to: 2025 },
      { make: 'Honda', model: 'CRF450R', from: 2009, to: 2025 },
      { make: 'Honda', model: 'CB500F', from: 2013, to: 2025 },
      { make: 'Kawasaki', model: 'KX250', from: 2017, to: 2025 },
      { make: 'Kawasaki', model: 'Ninja 650', from: 2017, to: 2025 },
      { make: 'Suzuki', model: 'RM-Z250', from: 2010, to: 2025 },
      { make: 'Suzuki', model: 'DR-Z400S', from: 2005, to: 2024 },
      { make: 'KTM', model: '250 SX-F', from: 2013, to: 2025 },
      { make: 'KTM', model: '450 SX-F', from: 2013, to: 2025 },
      { make: 'KTM', model: '390 Duke', from: 2017, to: 2025 },
      { make: 'Ducati', model: 'Scrambler Icon', from: 2015, to: 2025 },
    ],
  },
  'Full-Face Helmet': { brand: 'Shoei', mpn: 'GT-AIR3-M', category: 'helmets', universal: true },
  'Riding Gloves': { brand: 'Alpinestars', mpn: '3568620-10', category: 'gloves', universal: true },
  'Clutch Lever': {
    brand: 'ASV Inventions',
    mpn: 'C5-YZ-14',
    oemNumbers: ['5XC-83912-00'],
    category: 'levers',
    fitment: [
      { make: 'Yamaha', model: 'YZ250F', from: 2014, to: 2025 },
      { make: 'Yamaha', model: 'YZ450F', from: 2014, to: 2025 },
      { make: 'Yamaha', model: 'YFZ450R', from: 2009, to: 2024 },
    ],
  },
  'Bar-End Mirror': {
    brand: 'Rizoma',
    mpn: 'BS290B',
    category: 'mirrors',
    fitment: [
      { make: 'Yamaha', model: 'MT-07', from: 2014, to: 2025 },
      { make: 'Kawasaki', model: 'Z900', from: 2017, to: 2025 },
      { make: 'Honda', model: 'CB500F', from: 2013, to: 2025 },
      { make: 'KTM', model: '390 Duke', from: 2017, to: 2025 },
      { make: 'Ducati', model: 'Monster 821', from: 2015, to: 2020 },
      { make: 'Ducati', model: 'Scrambler Icon', from: 2015, to: 2025 },
    ],
  },
  'Oil Filter': {
    brand: 'Hiflofiltro',
    mpn: 'HF204',
    oemNumbers: ['5GH-13440-61', '15410-MFJ-D01'],
    category: 'filters',
    fitment: [
      { make: 'Yamaha', model: 'MT-07', from: 2014, to: 2025 },
      { make: 'Yamaha', model: 'YZF-R1', from: 2015, to: 2025 },
      { make: 'Yamaha', model: 'Ténéré 700', from: 2019, to: 2025 },
      { make: 'Honda', model: 'CBR600RR', from: 2007, to: 2024 },
      { make: 'Honda', model: 'CB500F', from: 2013, to: 2025 },
      { make: 'Honda', model: 'CRF1100L Africa Twin', from: 2020, to: 2025 },
      { make: 'Kawasaki', model: 'Ninja 650', from: 2017, to: 2025 },
      { make: 'Kawasaki', model: 'Z900', from: 2017, to: 2025 },
    ],
  },
  'Iridium Spark Plug': {
    brand: 'NGK',
    mpn: 'CR8EIX',
    oemNumbers: ['94702-00361'],
    category: 'ignition',
    fitment: [
      { make: 'Yamaha', model: 'YZ250F', from: 2014, to: 2025 },
      { make: 'Yamaha', model: 'NMAX 125', from: 2015, to: 2025 },
      { make: 'Honda', model: 'PCX125', from: 2010, to: 2025 },
      { make: 'Honda', model: 'CRF250R', from: 2010, to: 2017 },
      { make: 'Kawasaki', model: 'KX250', from: 2017, to: 2020 },
      { make: 'Suzuki', model: 'DR-Z400S', from: 2005, to: 2024 },
    ],
  },
  'Off-Road Tyre': {
    brand: 'Dunlop',
    mpn: 'MX33-110/90-19',
    category: 'tyres',
    fitment: [
      { make: 'Yamaha', model: 'YZ450F', from: 2014, to: 2025 },
      { make: 'Honda', model: 'CRF450R', from: 2009, to: 2025 },
      { make: 'KTM', model: '450 SX-F', from: 2013, to: 2025 },
      { make: 'Kawasaki', model: 'KX250', from: 2021, to: 2025 },
    ],
  },
  'Exhaust Silencer': {
    brand: 'Akrapovic',
    mpn: 'S-Y7SO3-HAFT',
    category: 'exhaust',
    fitment: [
      { make: 'Yamaha', model: 'MT-07', from: 2014, to: 2025 },
      { make: 'Yamaha', model: 'Ténéré 700', from: 2019, to: 2025 },
    ],
  },
  'LED Headlight': {
    brand: 'Daymaker',
    mpn: 'HD-7-LED-BLK',
    category: 'lighting',
    fitment: [
      { make: 'Harley-Davidson', model: 'Street Glide', from: 2014, to: 2025 },
      { make: 'Harley-Davidson', model: 'Fat Boy', from: 2005, to: 2025 },
      { make: 'Harley-Davidson', model: 'Sportster Iron 883', from: 2009, to: 2021 },
      { make: 'Kawasaki', model: 'KLR650', from: 2008, to: 2018 },
    ],
  },
  'Sintered Brake Pads': {
    brand: 'EBC',
    mpn: 'FA185HH',
    oemNumbers: ['1C3-W0045-00'],
    category: 'brake-pads',
    fitment: [
      { make: 'Yamaha', model: 'YZ250F', from: 2014, to: 2025 },
      { make: 'Yamaha', model: 'YZ450F', from: 2014, to: 2025 },
      { make: 'Honda', model: 'CRF250R', from: 2010, to: 2025 },
      { make: 'Honda', model: 'CRF450R', from: 2009, to: 2025 },
      { make: 'Suzuki', model: 'RM-Z250', from: 2010, to: 2025 },
      { make: 'Kawasaki', model: 'KX250', from: 2017, to: 2025 },
    ],
  },
  'Chest Protector': { brand: 'Leatt', mpn: '5019400110', category: 'protection', universal: true },
};
