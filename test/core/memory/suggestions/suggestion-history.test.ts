import { describeSuggestionHistory } from './suggestion-history-suite.js';

describeSuggestionHistory('dynalite');
