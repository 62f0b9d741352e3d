// An entry's page: a photo entry's food row searches your foods as you type (as on the plate).
import { attachFoodPicker } from "/js/food-picker.js";

for (const input of document.querySelectorAll("#count-as [name=ingredientFood]")) attachFoodPicker(input);
