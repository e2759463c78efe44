import { runServiceProcess } from '@paykit/runtime';
import { CustomersAppModule } from './app.module';

void runServiceProcess('customers', CustomersAppModule);
