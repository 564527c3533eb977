/**
 * Rural-tourism screens: the places' screen adds their map, the routes' screen draws a route's line on the
 * map in its form, the bookings' screen verifies (核销) by code and shows a booking's QR code. The slots get
 * the generic list page.
 */
import { areaPages } from '../../platform/pages';

export const tourismPages = areaPages(
  'tourism',
  () => import('@smart/contracts/tourism').then((m) => m.TOURISM_AREA),
  {
    own: {
      tourismPresets: () => import('./PresetPage'),
      tourismRoute: () => import('./RoutePage'),
      tourismBooking: () => import('./BookingPage'),
    },
  },
);
