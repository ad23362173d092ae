"""Where frames come from, and when one is worth reading.

The camera stage names and opens a frame source (a USB or Pi camera, a video or image
file, the rendered demo table) behind one interface, watches the stream until the dice
rest, and hands the settled frame to the reader (`vision.read`); `camera_contract` is
what the web app's camera thread drives.
"""
