import { runServiceProcess } from '@paykit/runtime';
import { CardsAppModule } from './app.module';

void runServiceProcess('cards', CardsAppModule);
