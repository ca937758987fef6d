/**
 * What a member may want help with (the about-you survey): the API's topic ids with the words the
 * pages show for them. The request categories of the concierge service follow the same lines.
 */
export const helpTopics = [
  {
    id: 'home_and_moving',
    title: 'Home and moving',
    description: 'Movers, repairs, cleaning, utilities',
  },
  { id: 'travel', title: 'Travel', description: 'Trips, bookings, passports and visas' },
  {
    id: 'health_and_wellness',
    title: 'Health and wellness',
    description: 'Appointments, prescriptions, fitness',
  },
  {
    id: 'finance_and_legal',
    title: 'Finance and legal',
    description: 'Bills, insurance, wills and paperwork',
  },
  {
    id: 'family_and_care',
    title: 'Family and care',
    description: 'Childcare, elder care, pets, schools',
  },
  {
    id: 'everyday_errands',
    title: 'Everyday errands',
    description: 'Gifts, deliveries, returns, reservations',
  },
] as const;

/** How a member would like to be reached. */
export const contactMethods = [
  { id: 'email', title: 'Email', description: 'To the address you signed up with' },
  { id: 'phone', title: 'Phone call', description: 'To the number below' },
  { id: 'text', title: 'Text message', description: 'To the number below' },
] as const;
