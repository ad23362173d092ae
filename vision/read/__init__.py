"""From a frame to a `vision.reading.Reading`.

The read stage locates each die's top face (the locator network), cuts and classifies
the crops (the face classifier), weighs the colour evidence of the frame's inks,
decodes the roll against the dice set and calibrates how far each die can be trusted;
a photo is read the same way, with looks at other scales and a crop to the tray.
"""
