import { runServiceProcess } from '@paykit/runtime';
import { PaymentsAppModule } from './app.module';

void runServiceProcess('payments', PaymentsAppModule);
