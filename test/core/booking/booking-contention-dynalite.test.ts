import { describeBookingContention } from './booking-contention.js';

describeBookingContention('dynalite');
