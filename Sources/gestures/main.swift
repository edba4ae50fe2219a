print("gestures")
